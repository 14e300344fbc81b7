import { z } from 'zod'
import { IdSchema } from './common'
import { ScanBoxSchema, ScanSchema, sittingLimits } from './sittings'

// API.md "Written answers marked by rubric", "On paper": written-answer booklets of a paper sitting and their
// photographed pages (docs/decisions/075).

export const bookletLimits = {
  /** Pages printed per learner (a sitting setting). */
  pages: 16,
  /** Written questions a page's bubble row holds. */
  questions: 38,
  /** Serials of blank booklets and spare pages. */
  serial: sittingLimits.blankSerial,
} as const

export const BookletPagesSettingSchema = z.number().int().min(1).max(bookletLimits.pages)

export const BookletParamsSchema = z.object({
  id: IdSchema,
  booklet: z.string().regex(/^(?:[1-9][0-9]{0,5}|blank|extra)\.svg$/),
})
export const BookletQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(bookletLimits.pages).default(1),
  serial: z.coerce.number().int().min(1).max(bookletLimits.serial).optional(),
})
export const BookletLayoutQuerySchema = z.object({ set: z.enum(['A', 'B', 'C', 'D']).optional() })

const MmBubble = z.object({ x_mm: z.number(), y_mm: z.number(), r_mm: z.number() })
export const BookletLayoutSchema = z.object({
  page: z.object({ width_mm: z.number(), height_mm: z.number() }),
  markers: z.array(z.object({ x_mm: z.number(), y_mm: z.number(), size_mm: z.number() })),
  qr: z.object({ x_mm: z.number(), y_mm: z.number(), size_mm: z.number() }),
  questions: z.array(MmBubble.extend({ number: z.number().int() })),
  roll: z.array(z.object({ column: z.number().int(), digits: z.array(MmBubble.extend({ digit: z.number().int() })) })),
  answer_area: z.object({ left_mm: z.number(), top_mm: z.number(), right_mm: z.number(), bottom_mm: z.number() }),
})
export type BookletLayoutBody = z.infer<typeof BookletLayoutSchema>

/** `spare_page` (docs/decisions/089): a spare page, which joins an answer once a person settles its `questions`. */
export const PageFlagKindSchema = z.enum(['question_unclear', 'no_question', 'roll', 'duplicate_page', 'spare_page'])
export const PageFlagSchema = z.object({
  kind: PageFlagKindSchema,
  /** The question numbers the bubbles seem to say, or the roll number read; for a person to confirm. */
  marks: z.array(z.string()),
  box: ScanBoxSchema,
})
export type PageFlag = z.infer<typeof PageFlagSchema>

export const PageStatusSchema = z.enum(['recorded', 'needs_review', 'discarded'])
export type PageStatus = z.infer<typeof PageStatusSchema>

export const BookletPageSchema = z.object({
  kind: z.literal('page'),
  id: z.number().int(),
  status: PageStatusSchema,
  roll_number: z.number().int().nullable(),
  /** Null for a spare page: it follows the learner's numbered pages. */
  page_number: z.number().int().nullable(),
  spare: z.boolean(),
  learner: z.object({ id: z.number().int(), username: z.string(), full_name: z.string() }).nullable(),
  questions: z.array(z.number().int()),
  flags: z.array(PageFlagSchema),
  /** Where the question bubbles are in the photo, outlined on the review screen. */
  question_box: ScanBoxSchema,
})
export type BookletPage = z.infer<typeof BookletPageSchema>

/** `POST .../pages/` answers a booklet page, or an answer sheet of the sitting sent to the same place (`kind`). */
export const PageOrSheetSchema = z.union([BookletPageSchema, ScanSchema.extend({ kind: z.literal('sheet') })])

export const BookletPageListSchema = z.object({ count: z.number().int(), results: z.array(BookletPageSchema) })
export const PageListQuerySchema = z.object({ status: PageStatusSchema.optional() })

export const PageUpdateSchema = z
  .object({
    roll_number: z.number().int().min(1).max(sittingLimits.rollNumber),
    questions: z.array(z.number().int().min(1).max(999)).max(bookletLimits.questions),
    discard: z.boolean(),
  })
  .partial()
export type PageUpdate = z.infer<typeof PageUpdateSchema>

/** Printed on a booklet's first page, in both languages. */
export const answerBookletInstructions = {
  en: [
    'Write your answers on these pages, on one side only, inside the ruled area.',
    'At the top of every page, fill the bubble of each question the page answers (one or more), fully, with a dark pen.',
    'Do not write near the corner squares or the QR code. Ask the invigilator for a spare page if you need one.',
  ],
  ne: [
    'यी पानाहरूमा, एकातिर मात्र, धर्सा भएको ठाउँभित्र उत्तर लेख्नुहोस्।',
    'हरेक पानाको माथि, त्यो पानाले उत्तर दिएका प्रत्येक प्रश्नको गोलो (एक वा बढी) गाढा कलमले पूरै भर्नुहोस्।',
    'कुनाका वर्ग वा QR कोडनजिक केही नलेख्नुहोस्। थप पाना चाहिए निरीक्षकसँग माग्नुहोस्।',
  ],
} as const

export const bookletMessages = {
  noWrittenQuestions: "This sitting's paper has no written questions: it has no answer booklets.",
  tooManyWritten: (count: number) =>
    `A booklet page's bubble row holds at most ${bookletLimits.questions} written questions; this paper has ${count}.`,
  pageBeyondBooklet: (page: number, pages: number) =>
    `This sitting prints ${pages} booklet pages a learner, not page ${page}.`,
  serialNeeded: 'Give the blank booklet a serial number.',
  pageNotFound: 'Page not found.',
  pageUnreadable: (how: string) => `The booklet page cannot be read: ${how}`,
  alreadyScanned:
    'This booklet page is already recorded. Send it again with replace=true to replace it, or delete the page first.',
  notAWrittenQuestion: (number: number) => `Question ${number} is not a written question of this learner's paper.`,
  noLearner: 'Settle whose page this is (roll_number) before its questions.',
  noQuestions: 'Name the question(s) the page answers, or discard it.',
  discarded: 'This page is discarded.',
} as const

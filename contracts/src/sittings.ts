// Paper sittings (API.md "Paper sittings"): printed papers and answer sheets read from a phone photo.
import { z } from 'zod'
import { bilingualInput, BilingualSchema, IdSchema, IsoDateTimeSchema, RichTextSchema } from './common'
import { LearnerPassageSchema, QuizImageSchema } from './quizzes'

export const SITTING_SETS = ['A', 'B', 'C', 'D'] as const
export const SittingSetSchema = z.enum(SITTING_SETS)
export type SittingSet = z.infer<typeof SittingSetSchema>

export const OPTION_LABELS = { latin: ['A', 'B', 'C', 'D', 'E'], devanagari: ['क', 'ख', 'ग', 'घ', 'ङ'] } as const
export const OptionLabelsSchema = z.enum(['latin', 'devanagari'])
export type OptionLabels = z.infer<typeof OptionLabelsSchema>

export const SittingStatusSchema = z.enum(['open', 'closed'])
export const ScanStatusSchema = z.enum(['recorded', 'needs_review'])
export type ScanStatus = z.infer<typeof ScanStatusSchema>
export const ScanFlagKindSchema = z.enum(['multiple', 'unclear', 'roll', 'set', 'numeric_unclear'])
export type ScanFlagKind = z.infer<typeof ScanFlagKindSchema>
export const AttemptModeSchema = z.enum(['online', 'paper'])
export type AttemptMode = z.infer<typeof AttemptModeSchema>

export const sittingLimits = {
  /** Sets a sitting may print (A..D). */
  sets: 4,
  /** Questions a sheet holds: five columns of 40 rows. */
  questions: 200,
  /** Options a question may have on a sheet. */
  options: 5,
  /** Roll numbers are 1..999999 (six digit columns on the sheet). */
  rollNumber: 999_999,
  /** Learners on one roster. */
  roster: 2_000,
  /** A photo as sent. */
  photoBytes: 15 * 1024 * 1024,
  photoPixels: 50_000_000,
  /** The kept photo's long side. */
  keptPhotoSide: 2_000,
  /** Blank sheets' serial numbers. */
  blankSerial: 9_999,
} as const

export const SittingCreateSchema = z.object({
  held_at: IsoDateTimeSchema,
  title: bilingualInput(200).optional(),
  sets: z.number().int().min(1).max(sittingLimits.sets).default(1),
  option_labels: OptionLabelsSchema.default('latin'),
  /** Written-answer booklet pages a learner (API.md "On paper"). */
  booklet_pages: z.number().int().min(1).max(16).default(4),
})
export type SittingCreate = z.input<typeof SittingCreateSchema>

export const SittingUpdateSchema = z
  .object({
    title: bilingualInput(200),
    held_at: IsoDateTimeSchema,
    status: SittingStatusSchema,
    booklet_pages: z.number().int().min(1).max(16),
  })
  .partial()
export type SittingUpdate = z.input<typeof SittingUpdateSchema>

export const SittingSchema = z.object({
  id: z.number().int(),
  quiz_id: z.number().int(),
  title: BilingualSchema,
  held_at: IsoDateTimeSchema,
  sets: z.array(SittingSetSchema),
  option_labels: OptionLabelsSchema,
  question_count: z.number().int(),
  status: SittingStatusSchema,
  roster_count: z.number().int(),
  scans: z.object({ recorded: z.number().int(), needs_review: z.number().int() }),
  /** Written-answer booklet pages a learner; always sent (optional only until the web's fixtures carry it). */
  booklet_pages: z.number().int().optional(),
})
export type Sitting = z.infer<typeof SittingSchema>
export const SittingListSchema = z.object({ count: z.number().int(), results: z.array(SittingSchema) })
export type SittingList = z.infer<typeof SittingListSchema>

export const SetQuerySchema = z.object({ set: SittingSetSchema.default('A') })

/**
 * `GET /api/admin/sittings/{id}/paper/?set=A`: what the web app prints as the set's booklet; no key. Each passage is
 * sent once and its questions name it by `passage_id`, as the offline paper does (docs/decisions/131).
 */
export const SittingPaperSchema = z.object({
  set: SittingSetSchema,
  instructions: BilingualSchema,
  passages: z.array(LearnerPassageSchema),
  sections: z.array(
    z.object({
      title: BilingualSchema,
      marks_correct: z.number(),
      marks_wrong: z.number(),
      questions: z.array(
        z.object({
          number: z.number().int(),
          /** `multiple` prints "Choose one or more"; `numeric` prints answer boxes and no options. */
          type: z.enum(['choice', 'multiple', 'numeric', 'written']),
          text: RichTextSchema,
          image: QuizImageSchema,
          options: z.array(z.object({ label: z.string(), text: RichTextSchema, image: QuizImageSchema })),
          passage_id: z.number().int().nullable(),
        }),
      ),
    }),
  ),
})
export type SittingPaper = z.infer<typeof SittingPaperSchema>

export const RollNumberSchema = z.number().int().min(1).max(sittingLimits.rollNumber)

export const RosterInputSchema = z.object({
  learners: z
    .array(
      z.object({
        username: z.string().trim().min(1).optional(),
        phone_number: z.string().trim().min(1).optional(),
        roll_number: RollNumberSchema.optional(),
        set: SittingSetSchema.optional(),
      }),
    )
    .max(sittingLimits.roster),
})
export type RosterInput = z.input<typeof RosterInputSchema>

const LearnerSchema = z.object({ id: z.number().int(), username: z.string(), full_name: z.string() })

export const RosterSchema = z.object({
  roster: z.array(z.object({ roll_number: z.number().int(), set: SittingSetSchema, user: LearnerSchema })),
})
export type Roster = z.infer<typeof RosterSchema>

const MmPointSchema = z.object({ x_mm: z.number(), y_mm: z.number() })
const BubbleSchema = MmPointSchema.extend({ r_mm: z.number() })

/** `GET /api/admin/sittings/{id}/sheet-layout/?set=A`: millimetres from the page's top left, every position a centre. */
export const SheetLayoutSchema = z.object({
  page: z.object({ width_mm: z.number(), height_mm: z.number() }),
  markers: z.array(MmPointSchema.extend({ size_mm: z.number() })),
  qr: MmPointSchema.extend({ size_mm: z.number() }),
  questions: z.array(
    z.object({ number: z.number().int(), options: z.array(BubbleSchema.extend({ label: z.string() })) }),
  ),
  roll: z.array(
    z.object({ column: z.number().int(), digits: z.array(BubbleSchema.extend({ digit: z.number().int() })) }),
  ),
  set: z.array(BubbleSchema.extend({ set: SittingSetSchema })),
  /** Numeric questions' grids (decision 129): a sign column, digit columns 0-9, the point's places. */
  numeric: z.array(
    z.object({
      question: z.number().int(),
      columns: z.array(
        z.object({
          kind: z.enum(['sign', 'digit', 'point']),
          bubbles: z.array(BubbleSchema.extend({ label: z.string() })),
        }),
      ),
    }),
  ),
})
export type SheetLayoutShape = z.infer<typeof SheetLayoutSchema>

/**
 * Where a flag's region (a question's row, the roll grid, the set row) is in the kept photo: fractions (0..1) of the
 * upright photo's width and height from its top left, so it holds at any size the photo is shown.
 */
export const ScanBoxSchema = z.object({
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
  width: z.number().min(0).max(1),
  height: z.number().min(0).max(1),
  /** The quarter turn, clockwise, the sheet lies at in the photo: the close-up is turned back by it. */
  turn: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]),
})
export type ScanBox = z.infer<typeof ScanBoxSchema>

export const ScanFlagSchema = z.object({
  question: z.number().int().nullable(),
  kind: ScanFlagKindSchema,
  marks: z.array(z.string()),
  /** Absent on scans read before boxes were kept. */
  box: ScanBoxSchema.optional(),
})
export type ScanFlag = z.infer<typeof ScanFlagSchema>

/** Answers in the printed question numbers and letters of the scan's set; null: left blank. */
export const ScanAnswersSchema = z.record(z.string().regex(/^[1-9][0-9]{0,2}$/), z.string().nullable())

export const ScanSchema = z.object({
  id: z.number().int(),
  status: ScanStatusSchema,
  roll_number: z.number().int().nullable(),
  set: SittingSetSchema.nullable(),
  learner: LearnerSchema.nullable(),
  answers: ScanAnswersSchema,
  flags: z.array(ScanFlagSchema),
  score: z.number().nullable(),
  attempt_id: z.number().int().nullable(),
})
export type Scan = z.infer<typeof ScanSchema>
export const ScanListSchema = z.object({ count: z.number().int(), results: z.array(ScanSchema) })
export type ScanList = z.infer<typeof ScanListSchema>
export const ScanListQuerySchema = z.object({ status: ScanStatusSchema.optional() })

/** `PATCH /api/admin/scans/{id}/`: settles flags; the attempt is recorded once none is left. */
export const ScanUpdateSchema = z.object({
  answers: ScanAnswersSchema.optional(),
  roll_number: RollNumberSchema.optional(),
  set: SittingSetSchema.optional(),
})
export type ScanUpdate = z.input<typeof ScanUpdateSchema>

/** `.../sheets/{roll_number}.svg` and `.../sheets/blank.svg`: the sheet named in one path segment. */
export const SheetParamsSchema = z.object({
  id: IdSchema,
  sheet: z.string().regex(/^(?:[1-9][0-9]{0,5}|blank)\.svg$/),
})
/** `serial` numbers a blank sheet (1..9999); a roster learner's sheet takes none. */
export const SheetQuerySchema = z.object({
  serial: z.coerce.number().int().min(1).max(sittingLimits.blankSerial).optional(),
})

/** `GET /api/admin/scans/{id}/photos/{photo_id}`: a photo a later one replaced, named in the audit trail. */
export const ScanPhotoParamsSchema = z.object({ id: IdSchema, photo_id: IdSchema })

/** The scan upload's text fields (multipart, beside the `image` file). */
export const ScanFieldsSchema = z.object({ replace: z.enum(['true', 'false']).optional() })

/** The sentences of the sittings' refusals (API.md "Paper sittings"). */
export const sittingMessages = {
  notFound: 'Sitting not found.',
  scanNotFound: 'Scan not found.',
  readerViewFailed: "The reader's view of this scan's photo could not be drawn.",
  quizNotFound: 'Quiz not found.',
  tooManyOptions: (numbers: readonly number[]) =>
    `A sheet prints at most ${sittingLimits.options} options a question; ${numbers.length === 1 ? 'question' : 'questions'} ${numbers.join(', ')} of the paper ${numbers.length === 1 ? 'has' : 'have'} more.`,
  questionCount: (count: number) =>
    count === 0
      ? 'The paper has no questions to print.'
      : `A sheet holds at most ${sittingLimits.questions} questions; this paper has ${count}.`,
  hasRecordedScans: 'This sitting has recorded answer sheets: delete their scans before deleting the sitting.',
  learnerMissing: "Give the learner's username or phone number.",
  unknownUsername: (username: string) => `No learner has the username "${username}".`,
  unknownPhone: (phone: string) => `No learner has the phone number ${phone}.`,
  repeatedRoll: (roll: number) => `Roll number ${roll} is given to more than one learner.`,
  repeatedLearner: 'This learner is on the roster more than once.',
  setNotPrinted: (set: string, sets: readonly string[]) =>
    `Set ${set} is not one of this sitting's sets (${sets.join(', ')}).`,
  rollNotOnRoster: (roll: number) => `Roll number ${roll} is not on this sitting's roster.`,
  learnerAlreadyRecorded: (roll: number) =>
    `The learner with roll number ${roll} already has a recorded sheet in this sitting.`,
  rollRecorded: (places: readonly { roll: number; username: string }[]) =>
    `${places.map((place) => `Roll number ${place.roll} (${place.username})`).join(', ')} ${places.length === 1 ? 'has a recorded answer sheet' : 'have recorded answer sheets'}: keep ${places.length === 1 ? 'that learner at that roll number' : 'those learners at those roll numbers'}, or delete ${places.length === 1 ? 'the scan' : 'the scans'} first.`,
  notMultipart: 'Send the photo as multipart/form-data, in the field "image".',
  noPhoto: 'Attach a photo of the answer sheet in the field "image".',
  photoTooLarge: 'The photo must be at most 15 MB.',
  photoTooManyPixels: 'The photo is over 50 megapixels: send the photo as the phone camera takes it.',
  photosBusy: 'Too many photos are being sent at once: send this one again in a few seconds.',
  photoTooCostly:
    'The photo takes too long to read (over 64 JPEG scans, or over 10 s): send the photo as the phone camera takes it.',
  notAPhoto: 'The file is not a photo: send a JPEG, PNG or WebP picture of the sheet.',
  tooManyParts: 'The form has too many parts: send one photo.',
  alreadyScanned: 'This answer sheet is already recorded. Send it again with replace=true to replace that reading.',
  closed: 'This sitting is closed: reopen it to add answer sheets.',
  noSuchQuestion: (number: number, numbers: readonly number[]) =>
    `Question ${number} is not on this answer sheet: its questions are ${numbers.join(', ')}.`,
  noChoiceQuestions:
    "This sitting's paper has only written questions: it has no answer sheet. Print its answer booklets.",
  notAnOption: (letter: string, number: number) => `${letter} is not an option of question ${number} on this sheet.`,
  gridTooWide: (numbers: readonly number[]) =>
    `A sheet's number grid has at most 8 digits; ${numbers.length === 1 ? 'question' : 'questions'} ${numbers.join(', ')} of the paper ${numbers.length === 1 ? 'needs' : 'need'} more.`,
  sheetFull: "The answer sheet has no room for all of this paper's rows and number grids.",
} as const

/**
 * What the booklet's first page tells the candidates (API.md "Paper sittings", the booklet's `instructions`), for a
 * paper of choice questions only; `paperInstructions` picks the one for a paper with written questions.
 */
export const bookletInstructions = {
  en: 'Write nothing on this booklet. For each question, fill one bubble on your answer sheet completely with a dark pen or pencil. To change an answer, erase it fully. Do not fold the answer sheet or write near its corner squares or QR code.',
  ne: 'यो पुस्तिकामा केही नलेख्नुहोस्। प्रत्येक प्रश्नका लागि उत्तरपुस्तिकामा एउटा गोलो गाढा कलम वा पेन्सिलले पूरै भर्नुहोस्। उत्तर बदल्नुपरे पहिलेको पूरै मेटाउनुहोस्। उत्तरपुस्तिका नपट्याउनुहोस्, र कुनाका वर्ग वा QR कोडनजिक केही नलेख्नुहोस्।',
} as const

/** A paper of choice and written questions: both are numbered as this booklet numbers them (docs/decisions/075). */
export const mixedBookletInstructions = {
  en: 'Write nothing on this booklet. For each choice question, fill one bubble on your answer sheet completely with a dark pen or pencil, in the row of its number in this booklet. Answer each written question in your answer booklet, and on each page fill the bubble of the number of every question the page answers. To change an answer, erase it fully. Do not fold the answer sheet or booklet, or write near their corner squares or QR codes.',
  ne: 'यो पुस्तिकामा केही नलेख्नुहोस्। प्रत्येक बहुवैकल्पिक प्रश्नका लागि उत्तरपुस्तिकामा यस पुस्तिकाको प्रश्न नम्बरको पङ्क्तिमा एउटा गोलो गाढा कलम वा पेन्सिलले पूरै भर्नुहोस्। लिखित प्रश्नको उत्तर उत्तर-कापीमा लेख्नुहोस्, र हरेक पानामा त्यस पानाले उत्तर दिएका प्रश्नका नम्बरको गोलो भर्नुहोस्। उत्तर बदल्नुपरे पहिलेको पूरै मेटाउनुहोस्। उत्तरपुस्तिका वा उत्तर-कापी नपट्याउनुहोस्, र कुनाका वर्ग वा QR कोडनजिक केही नलेख्नुहोस्।',
} as const

/** A paper of written questions only: there is no answer sheet. */
export const writtenBookletInstructions = {
  en: 'Write nothing on this booklet. Answer each question in your answer booklet, and on each page fill the bubble of the number of every question the page answers, as this booklet numbers them. Do not fold the answer booklet or write near its corner squares or QR code.',
  ne: 'यो पुस्तिकामा केही नलेख्नुहोस्। हरेक प्रश्नको उत्तर उत्तर-कापीमा लेख्नुहोस्, र हरेक पानामा त्यस पानाले उत्तर दिएका प्रश्नका नम्बर (यस पुस्तिकाकै नम्बर) को गोलो भर्नुहोस्। उत्तर-कापी नपट्याउनुहोस्, र कुनाका वर्ग वा QR कोडनजिक केही नलेख्नुहोस्।',
} as const

/** The booklet's instructions for a paper with or without choice and written questions. */
export const paperInstructions = (paper: { choice: boolean; written: boolean }) =>
  !paper.written ? bookletInstructions : paper.choice ? mixedBookletInstructions : writtenBookletInstructions

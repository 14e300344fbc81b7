// Paper sittings (API.md "Paper sittings"): printed papers and answer sheets read from a phone photo.
import { z } from 'zod'
import { bilingualInput, BilingualSchema, IsoDateTimeSchema, RichTextSchema } from './common'
import { QuizImageSchema } from './quizzes'

export const SITTING_SETS = ['A', 'B', 'C', 'D'] as const
export const SittingSetSchema = z.enum(SITTING_SETS)
export type SittingSet = z.infer<typeof SittingSetSchema>

export const OPTION_LABELS = { latin: ['A', 'B', 'C', 'D', 'E'], devanagari: ['क', 'ख', 'ग', 'घ', 'ङ'] } as const
export const OptionLabelsSchema = z.enum(['latin', 'devanagari'])
export type OptionLabels = z.infer<typeof OptionLabelsSchema>

export const SittingStatusSchema = z.enum(['open', 'closed'])
export const ScanStatusSchema = z.enum(['recorded', 'needs_review'])
export type ScanStatus = z.infer<typeof ScanStatusSchema>
export const ScanFlagKindSchema = z.enum(['multiple', 'unclear', 'roll', 'set'])
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
})
export type SittingCreate = z.input<typeof SittingCreateSchema>

export const SittingUpdateSchema = z
  .object({ title: bilingualInput(200), held_at: IsoDateTimeSchema, status: SittingStatusSchema })
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
})
export type Sitting = z.infer<typeof SittingSchema>
export const SittingListSchema = z.object({ count: z.number().int(), results: z.array(SittingSchema) })
export type SittingList = z.infer<typeof SittingListSchema>

export const SetQuerySchema = z.object({ set: SittingSetSchema.default('A') })

/** `GET /api/admin/sittings/{id}/paper/?set=A`: what the web app prints as the set's booklet; no key. */
export const SittingPaperSchema = z.object({
  set: SittingSetSchema,
  instructions: BilingualSchema,
  sections: z.array(
    z.object({
      title: BilingualSchema,
      marks_correct: z.number(),
      marks_wrong: z.number(),
      questions: z.array(
        z.object({
          number: z.number().int(),
          text: RichTextSchema,
          image: QuizImageSchema,
          options: z.array(z.object({ label: z.string(), text: RichTextSchema, image: QuizImageSchema })),
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
})
export type SheetLayoutShape = z.infer<typeof SheetLayoutSchema>

export const ScanFlagSchema = z.object({
  question: z.number().int().nullable(),
  kind: ScanFlagKindSchema,
  marks: z.array(z.string()),
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

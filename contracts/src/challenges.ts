// Answer-key challenges and re-grading (API.md "Answer-key challenges and re-grading"): a learner's flag from the
// report card, the admin's queue of flagged question revisions, and the key decision with its dry run.
import { z } from 'zod'
import { BilingualSchema, IdSchema, RichTextSchema } from './common'
import { NumericKeySchema } from './numeric-key'
import { CHALLENGE_NOTE_LENGTH, DROP_POLICIES, FLAG_REASONS, KEY_ACTIONS } from './rules/challenges'

export const challengeLimits = {
  challengeDays: { min: 0, max: 60 },
  noteLength: CHALLENGE_NOTE_LENGTH,
  /** How many score and rank changes a key decision lists. */
  listedChanges: 100,
} as const

export const challengeDefaults = { challenge_days: 7 } as const

export const challengeMessages = {
  challengeDays: `Challenge days must be a whole number from ${challengeLimits.challengeDays.min} to ${challengeLimits.challengeDays.max}.`,
  questionNotInAttempt: 'This question is not in this attempt.',
  optionNotOfQuestion: 'This option is not one of this question’s options.',
  attemptInProgress: 'This attempt is still in progress: flag a question from its report once it is finished.',
  challengeClosed: 'The time to challenge this quiz’s answer key has passed.',
  challengeNotOpen:
    'This answer key cannot be challenged yet: questions can be challenged once their right answers are shown.',
  proposalNotOfType: 'This kind of proposal does not fit this question’s type.',
  severalNotNumeric: 'A numeric question has no options to accept: change its value or range instead.',
  revisionNotOfQuestion: 'This revision is not one of this question’s revisions.',
  correctOptionsRequired: 'Name the right option(s) of this revision.',
  changeNeedsOne: 'A change names exactly one right option.',
  answerOnlyNumeric: 'Only a numeric question has a value or range: name its right options instead.',
  answerRequired: 'A change of a numeric question gives its new value or range in answer.',
  optionsNotNumeric: 'A numeric question has no options: give its new value or range in answer.',
  acceptSeveralNeedsTwo: 'Accepting several answers names at least two options.',
  optionNotOfRevision: 'This option is not one of this revision’s options.',
  noteRequired: 'Write a note: the learners who flagged this question read it.',
} as const

/** `challenge_days` on a quiz: an integer 0..60 (create-from-JSON, PATCH, the admin quiz). */
export const ChallengeDaysSchema = z
  .number({ error: (issue) => (issue.input === null ? 'This field may not be null.' : undefined) })
  .int(challengeMessages.challengeDays)
  .min(challengeLimits.challengeDays.min, challengeMessages.challengeDays)
  .max(challengeLimits.challengeDays.max, challengeMessages.challengeDays)

export const FlagReasonSchema = z.enum(FLAG_REASONS)
export type FlagReason = z.infer<typeof FlagReasonSchema>

export const FlagStatusSchema = z.enum(['open', 'accepted', 'rejected'])
export type FlagStatus = z.infer<typeof FlagStatusSchema>

const BodyIdSchema = z.number().int().positive().max(2_147_483_647)

/** `POST /api/results/{attemptId}/flags/`. */
export const FlagRequestSchema = z.object({
  question_id: BodyIdSchema,
  reason: FlagReasonSchema,
  proposed_option_id: BodyIdSchema.nullish().transform((value) => value ?? null),
  /** A multiple question's proposed right set (each an option of the question; the server checks that). */
  proposed_option_ids: z
    .array(BodyIdSchema)
    .max(10)
    .nullish()
    .transform((value) => (value && value.length > 0 ? value : null)),
  /** A numeric question's proposed value, as typed: the server reads it with the number rule (400 `invalid_number`). */
  proposed_value: z
    .string()
    .max(64)
    .nullish()
    .transform((value) => (value === undefined || value === null || value.trim() === '' ? null : value)),
  note: z
    .string()
    .trim()
    .max(challengeLimits.noteLength, `Ensure this field has no more than ${challengeLimits.noteLength} characters.`)
    .nullish()
    .transform((value) => value ?? ''),
})
export type FlagRequest = z.input<typeof FlagRequestSchema>

/** A learner's flag, as the flag route answers and the report card shows it. */
export const FlagSchema = z.object({
  id: z.number().int(),
  question_id: z.number().int(),
  reason: FlagReasonSchema,
  proposed_option_id: z.number().int().nullable(),
  /** A multiple question's proposed right set, ascending; null when none was proposed. */
  proposed_option_ids: z.array(z.number().int()).nullable(),
  /** A numeric question's proposed value in the number rule's shortest form; null when none was proposed. */
  proposed_value: z.string().nullable(),
  note: z.string(),
  status: FlagStatusSchema,
})
export type Flag = z.infer<typeof FlagSchema>

/** On a report card's answer, once a key decision changed this question's marks in this attempt. */
export const RegradeSchema = z.object({
  old_marks: z.number(),
  new_marks: z.number(),
  decided_at: z.string(),
  note: z.string(),
})
export type Regrade = z.infer<typeof RegradeSchema>

// The admin queue.

export const FlagQueueQuerySchema = z.object({
  status: z.enum(['open', 'decided']).default('open'),
  quiz_id: IdSchema.optional(),
  page: z.coerce.number().int().positive().max(1_000_000).default(1),
})
export type FlagQueueQuery = z.input<typeof FlagQueueQuerySchema>

export const FlagQueueEntrySchema = z.object({
  question: z.object({
    id: z.number().int(),
    revision_id: z.number().int(),
    /** What a decision may give: options (`choice`, `multiple`'s right set) or a numeric value or range. */
    type: z.enum(['choice', 'multiple', 'numeric', 'written']),
    /** A numeric question's value or range it scores on now (decided, else authored); null for other types. */
    answer: NumericKeySchema.nullable(),
    text: RichTextSchema,
    /** `is_correct` is the revision's current key; `chosen` counts finished attempts that chose the option. */
    options: z.array(
      z.object({ id: z.number().int(), text: RichTextSchema, is_correct: z.boolean(), chosen: z.number().int() }),
    ),
  }),
  quizzes: z.array(z.object({ id: z.number().int(), title: BilingualSchema })),
  flags: z.object({
    total: z.number().int(),
    by_reason: z.record(z.string(), z.number().int()),
    /**
     * Option id -> how many flags proposed it; for a multiple question each proposed set is one key ("12,15"), for a
     * numeric one each proposed value in shortest form.
     */
    proposed: z.record(z.string(), z.number().int()),
  }),
  /** What learners wrote, without who wrote it. */
  notes: z.array(z.object({ text: z.string(), reason: FlagReasonSchema, created_at: z.string() })),
  facility: z.number().nullable(),
  discrimination: z.number().nullable(),
  status: z.enum(['open', 'decided']),
})
export type FlagQueueEntry = z.infer<typeof FlagQueueEntrySchema>

export const FlagQueueSchema = z.object({ count: z.number().int(), results: z.array(FlagQueueEntrySchema) })
export type FlagQueue = z.infer<typeof FlagQueueSchema>

// Key decisions.

export const KeyActionSchema = z.enum(KEY_ACTIONS)
export type KeyAction = z.infer<typeof KeyActionSchema>

export const DropPolicySchema = z.enum(DROP_POLICIES)
export type DropPolicy = z.infer<typeof DropPolicySchema>

/**
 * A question revision's decided key as the admin and bank question payloads carry it; null while the revision
 * scores on the options it was written with. `drop_policy` is set when the question was dropped.
 */
export const QuestionKeySchema = z
  .object({
    version: z.number().int(),
    action: KeyActionSchema,
    correct_option_ids: z.array(z.number().int()),
    drop_policy: DropPolicySchema.nullable(),
    note: z.string(),
    decided_at: z.string(),
  })
  .nullable()
export type QuestionKey = z.infer<typeof QuestionKeySchema>

export const KeyQuestionParamsSchema = z.object({ questionId: IdSchema })

/** `POST /api/admin/questions/{questionId}/key/`. */
export const KeyDecisionRequestSchema = z
  .object({
    revision_id: BodyIdSchema,
    action: KeyActionSchema,
    correct_option_ids: z.array(BodyIdSchema).max(10).optional(),
    /**
     * `change` on a numeric question: its new `{value, tolerance}` or `{min, max}`, checked by the server as the
     * bank checks a question's (question-types.ts's NumericKeyInputSchema, which imports this module's neighbours).
     */
    answer: z.unknown().optional(),
    drop_policy: DropPolicySchema.optional(),
    note: z
      .string({ error: (issue) => (issue.input === undefined ? challengeMessages.noteRequired : undefined) })
      .trim()
      .min(1, challengeMessages.noteRequired)
      .max(challengeLimits.noteLength, `Ensure this field has no more than ${challengeLimits.noteLength} characters.`),
    dry_run: z.boolean({ error: (issue) => (issue.input === undefined ? 'This field is required.' : undefined) }),
  })
  .superRefine((body, context) => {
    const ids = body.correct_option_ids
    // What a change names is the question type's (the server's check): one option, a right set, or a numeric answer.
    if (body.action === 'accept_several') {
      if (!ids || ids.length === 0)
        context.addIssue({
          code: 'custom',
          message: challengeMessages.correctOptionsRequired,
          path: ['correct_option_ids'],
        })
      else if (body.action === 'accept_several' && new Set(ids).size < 2)
        context.addIssue({
          code: 'custom',
          message: challengeMessages.acceptSeveralNeedsTwo,
          path: ['correct_option_ids'],
        })
    }
  })
export type KeyDecisionRequest = z.input<typeof KeyDecisionRequestSchema>

export const ScoreChangeSchema = z.object({
  attempt_id: z.number().int(),
  username: z.string(),
  old_score: z.number(),
  new_score: z.number(),
})
export type ScoreChange = z.infer<typeof ScoreChangeSchema>

export const RankChangeSchema = z.object({
  username: z.string(),
  quiz_id: z.number().int(),
  old_rank: z.number().int(),
  new_rank: z.number().int(),
})
export type RankChange = z.infer<typeof RankChangeSchema>

/** The dry run's answer; the commit's adds `key_version`. */
export const KeyDecisionResultSchema = z.object({
  attempts_affected: z.number().int(),
  learners_affected: z.number().int(),
  score_changes: z.array(ScoreChangeSchema),
  rank_changes: z.array(RankChangeSchema),
  /** The key version the commit wrote (or the current one when the decision changed nothing); absent on a dry run. */
  key_version: z.number().int().optional(),
})
export type KeyDecisionResult = z.infer<typeof KeyDecisionResultSchema>

// The answer-key challenge lists, written once without zod: the report card and the admin's queue import this file
// alone (`@quiz/contracts/rules/challenges`), and the contracts' zod enums are built on it.

/** Why a learner flags a question, in the order the report card offers them. */
export const FLAG_REASONS = ['wrong_key', 'multiple_correct', 'no_correct', 'ambiguous', 'typo', 'other'] as const

/** What an admin's key decision does to a question revision. */
export const KEY_ACTIONS = ['keep', 'change', 'accept_several', 'drop'] as const

/** How a dropped question is marked. */
export const DROP_POLICIES = ['full_marks_all', 'full_marks_answered', 'exclude'] as const

/** A learner's flag note and an admin's decision note are at most this many characters. */
export const CHALLENGE_NOTE_LENGTH = 1_000

// A quiz's and a question's difficulties, written once without zod: the admin forms list them from this file
// (`@quiz/contracts/rules/difficulty`), and the contracts' DifficultySchema is built on it.

/** From easiest; the order the forms offer them in. */
export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const

import { AppError } from './errors'

/**
 * The result of a transaction that answers a refusal (an AppError) by returning it, thrown once the transaction
 * has committed. A refusal is an answer, not a failure: thrown inside, it would roll back what the transaction
 * wrote before it found the refusal (a submit or start settles the learner's expired attempts first, and those
 * finishes must stay), and the learner would hear of it before those writes were kept. Services whose refusals
 * come before any write return them the same way, so a reader meets one rule.
 */
export async function refusedAfterCommit<T>(transaction: Promise<T | AppError>): Promise<T> {
  const outcome = await transaction
  if (outcome instanceof AppError) throw outcome
  return outcome
}

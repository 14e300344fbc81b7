import { AppError } from './errors'

// A refusal is an answer, not a failure: thrown inside, it would roll back what the transaction wrote before finding
// it (a start settles the learner's expired attempts first, and those must stay). Services refuse the same way.
export async function refusedAfterCommit<T>(transaction: Promise<T | AppError>): Promise<T> {
  const outcome = await transaction
  if (outcome instanceof AppError) throw outcome
  return outcome
}

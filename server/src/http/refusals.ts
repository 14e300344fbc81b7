import { AppError } from './errors'

// Returned, not thrown: a throw would roll back what the transaction wrote first (a start's settled attempts).
export async function refusedAfterCommit<T>(transaction: Promise<T | AppError>): Promise<T> {
  const outcome = await transaction
  if (outcome instanceof AppError) throw outcome
  return outcome
}

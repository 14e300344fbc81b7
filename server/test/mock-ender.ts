import { createAttemptLifecycle } from '../src/attempts/attempts.service'
import type { Database } from '../src/db/database'
import type { Clock } from '../src/lib/clock'
import { createMockEnder } from '../src/live/mock-ends'
import { createQuestionPapers } from '../src/questions/question-papers'
import { testConfig } from './test-app'

const silent = { error: () => {}, info: () => {} }

/** A live mock-ending job of its own, as another process runs one: its own lifecycle and paper cache on `database`. */
export function mockEnderOn(database: Database, clock: Clock, options: { chunk?: number } = {}) {
  const config = testConfig()
  const lifecycle = createAttemptLifecycle({ database, clock, config, papers: createQuestionPapers() })
  return createMockEnder({ database, clock, config }, lifecycle, silent, options)
}

import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// docs/decisions/062: only server/src/outcomes/ writes an attempt's outcome: its row's birth and removal, its score
// columns, `ranked` and `marks_pending`, the rank tally and the leaderboard snapshots. Migrations (frozen) and tests
// (which seed rows) are not held to it.
const src = path.join(import.meta.dirname, '../src')
const OUTCOME_TABLES = 'first_attempt_scores|leaderboard_snapshots'
const OUTCOME_COLUMNS = /\b(score_hundredths|correct|incorrect|unanswered|ranked|marks_pending)\s*:/

/** Each write of an outcome in `code`, named by the statement that makes it. */
export function outcomeWrites(code: string): string[] {
  const found: string[] = []
  for (const match of code.matchAll(
    new RegExp(`\\.(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\\('(${OUTCOME_TABLES})'`, 'g'),
  ))
    found.push(match[0])
  for (const match of code.matchAll(/\.(insertInto|deleteFrom)\('attempts'\)/g)) found.push(match[0])
  for (const match of code.matchAll(/\.updateTable\('attempts'\)/g)) {
    // The statement's SET: up to its WHERE (or its end).
    const rest = code.slice(match.index + match[0].length)
    const end = rest.search(/\.where\(|\.execute|\n\n/)
    if (OUTCOME_COLUMNS.test(end < 0 ? rest : rest.slice(0, end))) found.push(`${match[0]}.set(outcome columns)`)
  }
  for (const match of code.matchAll(
    new RegExp(`(insert\\s+into|update|delete\\s+from)\\s+(${OUTCOME_TABLES})\\b`, 'gi'),
  ))
    found.push(match[0])
  return found
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'migrations' || entry.name === 'outcomes' ? [] : sourceFiles(full)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : []
  })
}

describe('the one writer of outcomes', () => {
  it('is outcomes/: no other source file writes an outcome column or table', () => {
    const writers = sourceFiles(src).flatMap((file) =>
      outcomeWrites(readFileSync(file, 'utf8')).map((write) => `${path.relative(src, file)}: ${write}`),
    )
    expect(writers).toEqual([])
  })

  it('finds the writes it looks for, and lets other writes of attempts through', () => {
    expect(outcomeWrites("db.insertInto('first_attempt_scores').values(x)")).toHaveLength(1)
    expect(outcomeWrites("db.deleteFrom('leaderboard_snapshots').where('quiz_id', '=', 1)")).toHaveLength(1)
    expect(outcomeWrites("db.updateTable('attempts').set({ ranked: 1 }).where('id', '=', 1)")).toHaveLength(1)
    expect(
      outcomeWrites("db.updateTable('attempts').set((eb) => ({\n  correct: eb('correct', '+', 1),\n}))"),
    ).toHaveLength(1)
    expect(outcomeWrites("db.insertInto('attempts').values(row)")).toHaveLength(1)
    expect(outcomeWrites('sql`update first_attempt_scores set learners = 0`')).toHaveLength(1)
    expect(outcomeWrites("db.updateTable('attempts').set({ current_section: 2 }).where('ranked', '=', 1)")).toEqual([])
    expect(outcomeWrites("db.selectFrom('first_attempt_scores').selectAll()")).toEqual([])
  })
})

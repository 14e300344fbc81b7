import type { Difficulty, ImportFormat, LegacyFontChoice } from '@quiz/contracts'
import { convertFontRuns, convertTextLines } from '../legacy'
import { ColumnsRefused, NoHeader, readInput, Unreadable, type ImportInput } from '../readers'
import { buildRow, type HashedRow } from '../rows'

// The part of a dry run that only computes: the file read into drafts and each draft built into a row. It needs no
// database and no request, so it runs in an import worker (pool.ts); what it returns crosses to the event loop as
// a structured clone, errors included as plain data.

export interface ReadJob {
  input: ImportInput
  legacyFont: LegacyFontChoice
  defaults: { topic?: string; tags: string[]; difficulty?: Difficulty; source?: string }
}

/** A refusal of the file, as plain data: `columns` is 400 at `columns`, the others `import_unreadable`. */
export type ReadFailure =
  | { kind: 'columns'; message: string }
  | { kind: 'no_header'; message: string; headings: string[] }
  | { kind: 'unreadable'; message: string }

export type ReadResult = { ok: true; format: ImportFormat; rows: HashedRow[] } | { ok: false; failure: ReadFailure }

export async function readJob(job: ReadJob): Promise<ReadResult> {
  let read: Awaited<ReturnType<typeof readInput>>
  try {
    read = await readInput(
      job.input,
      (runs) => convertFontRuns(runs, job.legacyFont),
      (lines) => convertTextLines(lines, job.legacyFont),
    )
  } catch (error) {
    if (error instanceof ColumnsRefused) return { ok: false, failure: { kind: 'columns', message: error.message } }
    if (error instanceof NoHeader)
      return { ok: false, failure: { kind: 'no_header', message: error.message, headings: error.headings } }
    if (error instanceof Unreadable) return { ok: false, failure: { kind: 'unreadable', message: error.message } }
    throw error
  }
  const rows: HashedRow[] = []
  for (const draft of read.drafts)
    rows.push(await buildRow(draft, { format: read.format, legacyFont: job.legacyFont, defaults: job.defaults }))
  return { ok: true, format: read.format, rows }
}

import type { Difficulty, ImportFormat, ImportRow, LegacyFontChoice } from '@quiz/contracts'
import { convertFontRuns, convertTextLines } from '../legacy'
import { ColumnsRefused, NoHeader, readInput, Unreadable, type ImportInput } from '../readers'
import { buildRow, refuseOverfullPassages, type HashedRow } from '../rows'
import { markDuplicates, summaryOf } from '../duplicates'
import type { EncodedPicture } from '../../pictures/picture-encoding'

// Rows cross threads as JSON text: a structured clone of thousands of rows costs seconds (docs/decisions/043).

export interface ReadJob {
  input: ImportInput
  legacyFont: LegacyFontChoice
  /** pictures/picture-names.ts: the worker names the pictures it encodes. */
  pictureKey: string
  defaults: { topic?: string; tags: string[]; difficulty?: Difficulty; source?: string }
}

export interface SettleJob {
  rowsJson: string
  inBank: [hash: string, questionId: number][]
}

export type WorkerJob = { kind: 'read'; job: ReadJob } | { kind: 'settle'; job: SettleJob }

export type ReadFailure =
  | { kind: 'columns'; message: string }
  | { kind: 'no_header'; message: string; headings: string[] }
  | { kind: 'unreadable'; message: string }

export type ReadResult =
  | { ok: true; format: ImportFormat; count: number; rowsJson: string; hashes: string[]; pictures: EncodedPicture[] }
  | { ok: false; failure: ReadFailure }

export interface SettleResult {
  storedJson: string
  rowsJson: string
  summary: Record<'ok' | 'fixed' | 'rejected' | 'duplicate', number>
}

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
  const pictures = new Map<string, EncodedPicture>()
  for (const draft of read.drafts)
    rows.push(
      await buildRow(draft, {
        format: read.format,
        legacyFont: job.legacyFont,
        defaults: job.defaults,
        pictures,
        pictureKey: job.pictureKey,
      }),
    )
  refuseOverfullPassages(rows)
  return {
    ok: true,
    format: read.format,
    count: rows.length,
    rowsJson: JSON.stringify(rows),
    hashes: rows.flatMap((row) => (row.hash ? [row.hash] : [])),
    pictures: [...pictures.values()],
  }
}

const withoutHash = ({ hash: _hash, ...row }: HashedRow): ImportRow => row

export function settleJob(job: SettleJob): SettleResult {
  const rows = JSON.parse(job.rowsJson) as HashedRow[]
  markDuplicates(rows, new Map(job.inBank))
  return { storedJson: JSON.stringify(rows), rowsJson: JSON.stringify(rows.map(withoutHash)), summary: summaryOf(rows) }
}

export async function runJob(message: WorkerJob): Promise<ReadResult | SettleResult> {
  return message.kind === 'read' ? readJob(message.job) : settleJob(message.job)
}

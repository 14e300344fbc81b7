import { importMessages, type BankListQuerySchema, type ImportFields, type ImportFieldsSchema } from '@quiz/contracts'
import type { z } from 'zod'
import type { BankService } from '../admin/bank.service'
import type { UserActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { PicturesService } from '../pictures/pictures.service'
import { AppError, ValidationFailed } from '../http/errors'
import { bankQuestionsByHash, deleteExpiredDryRuns, insertDryRun } from './imports.repository'
import type { ImportInput } from './readers'
import type { ReadJob } from './worker/read-job'
import { PoolBusy, ReadRefused, sharedReadPool, type ReadPool } from './worker/pool'
import { exportBankXlsx } from './bank-export'
import { createImportCommit } from './import-commit'

type Fields = z.output<typeof ImportFieldsSchema>
type BankQuery = z.output<typeof BankListQuerySchema>

const HOUR = 60 * 60 * 1000
const PICTURE_URLS = /\/api\/pictures\/([0-9a-f]{64})\.webp/g

export const unreadable = (detail: string) => new AppError(400, 'import_unreadable', detail)

export function createImportsService({
  database,
  clock,
  config,
  bank,
  pictures,
}: Pick<AppContext, 'database' | 'clock' | 'config'> & {
  bank: BankService
  pictures: Pick<PicturesService, 'saveEncoded' | 'alreadyStored' | 'read' | 'key'>
}) {
  const { db } = database
  let pool: ReadPool | null = null

  async function inWorker<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      if (error instanceof PoolBusy)
        throw new AppError(429, 'rate_limited', importMessages.busy, undefined, { 'retry-after': '30' })
      if (error instanceof ReadRefused) throw unreadable(importMessages.tooSlow)
      throw error
    }
  }

  async function readInWorker(job: ReadJob) {
    pool ??= sharedReadPool(config.imports)
    const result = await inWorker(() => pool!.read(job))
    if (result.ok) return result
    const { failure } = result
    if (failure.kind === 'columns') throw new ValidationFailed({ columns: [failure.message] })
    if (failure.kind === 'no_header')
      throw new AppError(400, 'import_unreadable', failure.message, undefined, undefined, {
        headings: failure.headings,
      })
    throw unreadable(failure.message)
  }

  const commit = createImportCommit({ database, clock })

  return {
    async dryRun(input: ImportInput, fields: Fields, actor: UserActor): Promise<string> {
      const read = await readInWorker({
        input: { ...input, columns: fields.columns },
        legacyFont: fields.legacy_font,
        pictureKey: pictures.key,
        defaults: { topic: fields.topic, tags: fields.tags, difficulty: fields.difficulty, source: fields.source },
      })
      if (read.count === 0)
        throw unreadable(
          'No questions were found: a spreadsheet needs rows under its header row, and text needs numbered questions with lettered options.',
        )
      const inBank = await bankQuestionsByHash(db, read.hashes)
      const settled = await inWorker(() => pool!.settle({ rowsJson: read.rowsJson, inBank: [...inBank] }))
      // A picture the bank holds, come back as the export's PNG of it, stays the stored one: its rows name that url.
      const stored = await pictures.alreadyStored(read.pictures)
      const toStored = (json: string) =>
        stored.size === 0
          ? json
          : json.replace(PICTURE_URLS, (url: string, hash: string) => stored.get(hash)?.url ?? url)
      const storedJson = toStored(settled.storedJson)
      const rowsJson = toStored(settled.rowsJson)
      await pictures.saveEncoded(
        // A Buffer crosses from the worker as a plain Uint8Array; the database drivers bind Buffers.
        read.pictures
          .filter((picture) => !stored.has(picture.hash))
          .map((picture) => ({
            ...picture,
            data: Buffer.from(picture.data.buffer, picture.data.byteOffset, picture.data.byteLength),
          })),
      )
      const now = clock.now()
      const expiresAt = now + config.importTtlHours * HOUR
      const importId = await database.transaction(async (trx) => {
        await deleteExpiredDryRuns(trx, now)
        return insertDryRun(trx, {
          createdBy: actor.id,
          format: read.format,
          rowsJson: storedJson,
          now,
          expiresAt,
        })
      })
      const head = { import_id: importId, format: read.format }
      const tail = { summary: settled.summary, expires_at: new Date(expiresAt).toISOString() }
      return `${JSON.stringify(head).slice(0, -1)},"rows":${rowsJson},${JSON.stringify(tail).slice(1)}`
    },

    commit,

    exportXlsx: (query: BankQuery): Promise<Buffer> => exportBankXlsx({ db, bank, pictures }, query),
  }
}

export type ImportsService = ReturnType<typeof createImportsService>
export type { ImportFields }

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { picturePath } from '@quiz/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import { moveFilesIntoStore, tablesHoldingFiles } from '../src/db/move-files'
import { migrateToLatest } from '../src/db/migrate'
import type { FileStore } from '../src/files'
import { createLocalStore } from '../src/files/local-store'
import { createS3Store } from '../src/files/s3-store'
import { createTokenSigner } from '../src/http/tokens'
import { FakeClock } from '../src/lib/clock'
import { pageUrls, pageUrlKey } from '../src/written/answer-pages'
import { dialects } from './dialects'
import { bearerFor, createUser } from './factories'
import { expectNoFileBytesInTables } from './file-bytes'
import { startLocalS3, type LocalS3 } from './local-s3'
import { MemorySms } from './memory-sms'
import { openDatabaseAt } from './migration-database'
import { fillAsBefore } from './older-files'
import { testConfig, type TestApp } from './test-app'
import { writtenPaper } from './written-papers'

// npm run files:migrate is "safe to run while the server serves" (API.md "Operations", Files; docs/decisions/112):
// the app serves a database an older server filled, files in their rows, while the run moves them a row at a time,
// and every file's address answers 200 with its own bytes before, between every write and its row's update, and after.

// Past the app's picture cache (10 minutes), so that every round reads each picture where it is kept now.
const ROUND_MS = 11 * 60_000

describe.each(dialects)('files:migrate while the app serves every kind of file, on %s', (dialect) => {
  let directory: string
  let s3: LocalS3 | undefined

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'quiz-migrate-serving-'))
    if (process.env.TEST_FILE_STORE === 's3') s3 = await startLocalS3()
  })
  afterAll(async () => {
    await s3?.stop()
    await rm(directory, { recursive: true, force: true })
  })

  it('answers every picture, profile picture, scan, booklet page and written page with its bytes throughout', async () => {
    const opened = await openDatabaseAt(dialect, '0051_institute_indexes')
    const { database } = opened
    const files: FileStore = s3 ? createS3Store(s3.settings) : createLocalStore(directory)
    const clock = new FakeClock()
    const config = testConfig()
    const tokens = createTokenSigner({
      secret: config.jwtSecret,
      // Rounds move the clock on by hours; an admin token signed at a round start must outlive the rounds beside it.
      accessTtl: 86_400,
      refreshTtl: config.refreshTokenTtl,
      sessionMaxTtl: config.sessionMaxSeconds,
      clock,
    })
    const app = await buildApp({ config, database, clock, sms: new MemorySms(), tokens, files }, { logger: false })
    try {
      const expected = await fillAsBefore(opened.db, opened.insert)
      await migrateToLatest(database)
      await app.ready()
      const db = database.db
      const t = { app, database, db, appDatabase: database, clock, sms: new MemorySms(), config, tokens, files }
      const admin = await createUser(database, { is_admin: 1 })

      // What names each file as the app serves it: a question uses each picture, each page image is a booklet page
      // and a written answer's page; scans and their earlier photos are as the older server left them.
      const fixed: { url: string; data: Buffer; admin?: true }[] = []
      const written: { pageId: number; data: Buffer; phone: Buffer }[] = []
      const { id: sittingId } = await db.selectFrom('sittings').select('id').executeTakeFirstOrThrow()
      const answer = await (await writtenPaper(t as TestApp)).sit()
      for (const file of expected) {
        const id = String(file.id)
        if (file.table === 'pictures') {
          await db.insertInto('picture_uses').values({ hash: id }).execute()
          fixed.push({ url: picturePath(id), data: file.data })
        } else if (file.table === 'profile_pictures') {
          fixed.push({ url: `/api/users/profile-pictures/${id}`, data: file.data })
        } else if (file.table === 'sitting_scans') {
          fixed.push({ url: `/api/admin/scans/${id}/image`, data: file.data, admin: true })
        } else if (file.table === 'scan_photos') {
          const { scan_id } = await db
            .selectFrom('scan_photos')
            .select('scan_id')
            .where('id', '=', Number(id))
            .executeTakeFirstOrThrow()
          fixed.push({ url: `/api/admin/scans/${scan_id}/photos/${id}`, data: file.data, admin: true })
        } else {
          const booklet = await db
            .insertInto('booklet_pages')
            .values({
              sitting_id: sittingId,
              sheet: `B${id.slice(0, 8)}`,
              serial: null,
              page_number: 1,
              status: 'needs_review',
              roll_number: null,
              user_id: null,
              questions: '[]',
              flags: '[]',
              question_box: '{}',
              image_hash: id,
              answer_hash: null,
              upload_hash: id,
              scanned_by: null,
              created_at: 0,
              updated_at: 0,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
          fixed.push({ url: `/api/admin/pages/${booklet.id}/image`, data: file.data, admin: true })
          const page = await db
            .insertInto('written_answer_pages')
            .values({ answer_id: answer.answerId, number: written.length + 1, image_hash: id, created_at: 0 })
            .returning('id')
            .executeTakeFirstOrThrow()
          // A page kept without its phone rendition is served whole to the phone (its bytes are no photo to shrink).
          written.push({ pageId: page.id, data: file.data, phone: file.phone ?? file.data })
        }
      }
      expect(fixed).toHaveLength(expected.length)
      expect(written).toHaveLength(5)

      // One round: every address once, all at once, each answer checked. Addresses that expire are made afresh.
      let rounds = 0
      const round = async () => {
        clock.advance(ROUND_MS)
        const headers = await bearerFor(tokens, admin)
        const key = pageUrlKey(config.jwtSecret)
        const asked = [
          ...fixed.map(({ url, data, admin }) => ({ url, data, headers: admin ? headers : {} })),
          ...written.flatMap(({ pageId, data, phone }) => {
            const urls = pageUrls(key, pageId, clock.now())
            return [
              { url: urls.url, data, headers: {} },
              { url: urls.phone_url, data: phone, headers: {} },
            ]
          }),
        ]
        const answers = await Promise.all(asked.map(({ url, headers }) => app.inject({ method: 'GET', url, headers })))
        answers.forEach((response, i) => {
          expect(response.statusCode, `round ${rounds}: ${asked[i]!.url}`).toBe(200)
          expect(response.rawPayload.equals(asked[i]!.data), `round ${rounds}: ${asked[i]!.url}`).toBe(true)
        })
        rounds++
      }

      await round()
      // The run, a row at a time; after each file is written and before its row is pointed at it, a whole round.
      let writes = 0
      const racing: FileStore = {
        ...files,
        put: async (key, data, type) => {
          await files.put(key, data, type)
          writes++
          await round()
        },
      }
      // Rounds keep going beside the run as well, between its rows' updates and the next writes.
      let running = true
      const beside = (async () => {
        while (running) {
          await round()
          // A breath between rounds, so that the run gets on (s3rver is slow) while requests still cross its updates.
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      })()
      const reports = await moveFilesIntoStore(database, racing, { batch: 2 }).finally(() => (running = false))
      await beside

      const moved = reports.reduce((sum, report) => sum + report.moved, 0)
      expect(moved).toBe(expected.length + expected.filter((file) => file.phone).length)
      expect(writes).toBe(moved)
      expect(rounds).toBeGreaterThan(moved)
      expect(await tablesHoldingFiles(database)).toEqual([])
      await expectNoFileBytesInTables(database)
      await round()
    } finally {
      await app.close()
      await opened.drop()
    }
  }, 120_000)
})

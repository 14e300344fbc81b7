import { importMessages } from '@quiz/contracts'
import { strToU8, zipSync } from 'fflate'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { multipart, postImport } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { zipBomb, warmImportWorker } from '../../test/fixtures/import-files.fixtures'
import { declaredSizes } from './readers/zip'
import { sharedReadPool } from './worker/pool'

// Issue 41: Office files are capped before they are parsed (L4), and imports are read in a worker, so that the
// server answers while one is read and refuses, in the API's error shape, what it will not read (M2).

const MB = 1024 * 1024
const documentXml = (bytes: number) =>
  strToU8(
    `<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>1. Q</w:t></w:r></w:p>${' '.repeat(bytes)}</w:body></w:document>`,
  )
const sheetXml = (cells: number, padding = 0) =>
  strToU8(
    `<worksheet><sheetData><row r="1">${'<c/>'.repeat(cells)}</row></sheetData>${' '.repeat(padding)}</worksheet>`,
  )
const workbook = (sheet: Uint8Array) =>
  Buffer.from(zipSync({ 'xl/workbook.xml': strToU8('<workbook/>'), 'xl/worksheets/sheet1.xml': sheet }, { level: 9 }))

/** The zip with every entry's uncompressed size, in its central directory and local header, set to `size`. */
function lyingAboutSizes(zip: Uint8Array, size: number): Buffer {
  const out = Buffer.from(zip)
  for (let at = 0; at + 4 <= out.length; at++) {
    const signature = out.readUInt32LE(at)
    if (signature === 0x04034b50) out.writeUInt32LE(size, at + 22)
    if (signature === 0x02014b50) out.writeUInt32LE(size, at + 24)
  }
  return out
}

beforeAll(warmImportWorker, 180_000)

describe.each(dialects)('import limits on %s', (dialect) => {
  const t = useTestApp(dialect)
  const upload = async (file: { data: Buffer; filename: string } | null, fields: Record<string, string> = {}) => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const response = await postImport(t.app, headers, fields, file)
    return { status: response.statusCode, body: response.json() }
  }
  const refused = (detail: string) => ({ status: 400, body: { code: 'import_unreadable', detail } })

  it("refuses a Word file whose text unpacks past its cap, by the zip's directory and while inflating", async () => {
    const big = zipSync({ 'word/document.xml': documentXml(7 * MB) }, { level: 9 })
    expect(declaredSizes(big).get('word/document.xml')).toBeGreaterThan(7 * MB)
    expect(await upload({ data: Buffer.from(big), filename: 'big.docx' })).toMatchObject(
      refused(importMessages.documentTooLarge),
    )
    // Declared small, it is stopped while inflating, once past the cap.
    const lying = lyingAboutSizes(big, 100)
    expect(declaredSizes(lying).get('word/document.xml')).toBe(100)
    expect(await upload({ data: lying, filename: 'lying.docx' })).toMatchObject(
      refused(importMessages.documentTooLarge),
    )
    // Declared large, it is refused before anything is inflated: its damaged data is never reached.
    const declaredOnly = lyingAboutSizes(zipSync({ 'word/document.xml': documentXml(10) }), 7 * MB)
    declaredOnly.fill(0xff, 30 + 'word/document.xml'.length, 40 + 'word/document.xml'.length)
    expect(await upload({ data: declaredOnly, filename: 'declared.docx' })).toMatchObject(
      refused(importMessages.documentTooLarge),
    )
  })

  it('refuses a workbook whose sheet is past its cap of bytes or of cells', async () => {
    expect(await upload({ data: workbook(sheetXml(10, 17 * MB)), filename: 'wide.xlsx' })).toMatchObject(
      refused(importMessages.sheetTooLarge),
    )
    expect(await upload({ data: workbook(sheetXml(250_001)), filename: 'cells.xlsx' })).toMatchObject(
      refused(importMessages.sheetTooLarge),
    )
    expect(await upload({ data: zipBomb(20 * MB, 'xl/worksheets/sheet1.xml'), filename: 'bomb.xlsx' })).toMatchObject(
      refused(importMessages.sheetTooLarge),
    )
  })

  it('answers the health check while a long paste is read in the worker', async () => {
    const paste = Array.from(
      { length: 2000 },
      (_, i) => `${i + 1}. Which district is number ${i}?\nA. One\nB. Two\nC. Three\nAnswer: B`,
    ).join('\n\n')
    const done: string[] = []
    const dryRun = upload(null, { text: paste }).then((response) => {
      done.push('import')
      return response
    })
    // The upload is parsed and handed to the worker before the health check is asked.
    await new Promise((resolve) => setTimeout(resolve, 50))
    const health = await t.app.inject({ method: 'GET', url: '/api/health' })
    done.push('health')
    expect(health.statusCode).toBe(200)
    expect((await dryRun).status).toBe(201)
    expect(done).toEqual(['health', 'import'])
  })

  it('commits its questions in slices of their own transactions, and writes each once when committed again', async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const paste = Array.from(
      { length: 250 },
      (_, i) => `${i + 1}. Which river is number ${i}?\nA. One\nB. Two\nAnswer: A`,
    ).join('\n\n')
    const run = await upload(null, { text: paste })
    expect(run.body.summary.ok).toBe(250)
    const commit = () =>
      t.app.inject({ method: 'POST', url: `/api/admin/imports/${run.body.import_id}/commit/`, headers, payload: {} })
    // One transaction for all of them would hold SQLite's writer, and on SQLite the event loop, until its end.
    const transactions = vi.spyOn(t.appDatabase, 'transaction')
    expect((await commit()).json()).toMatchObject({ imported: 250, duplicates: 0 })
    expect(transactions).toHaveBeenCalledTimes(3)
    // Committed again (as after a failure part-way), nothing is written twice.
    expect((await commit()).json()).toMatchObject({ imported: 0, duplicates: 250 })
  })
})

describe.each(dialects)('a full import queue on %s', (dialect) => {
  const t = useTestApp(dialect, { IMPORT_WORKERS: '1', IMPORT_QUEUE: '1', IMPORT_TIMEOUT_SECONDS: '120' })

  it('refuses an upload past the queue with 429 and Retry-After, and reads the others', async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const send = (text: string) => {
      const form = multipart({ text }, [])
      return t.app.inject({
        method: 'POST',
        url: '/api/admin/imports/',
        headers: { ...headers, ...form.headers },
        payload: form.payload,
      })
    }
    // The app's pool (one per process and settings): each upload is sent once the one before is reading or waiting.
    const pool = sharedReadPool(t.config.imports)
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 10))
    }
    const long = Array.from({ length: 1500 }, (_, i) => `${i + 1}. Q${i}?\nA. x\nB. y\nAnswer: A`).join('\n\n')
    const reading = send(long)
    await until(() => pool.load().reading === 1)
    const waiting = send('1. Which?\nA. x\nB. y\nAnswer: A')
    await until(() => pool.load().waiting === 1)
    const busy = await send('1. Which?\nA. x\nB. y\nAnswer: A')
    expect(busy.statusCode).toBe(429)
    expect(busy.json()).toMatchObject({ code: 'rate_limited', detail: importMessages.busy })
    expect(busy.headers['retry-after']).toBe('30')
    expect((await reading).statusCode).toBe(201)
    expect((await waiting).statusCode).toBe(201)
  }, 120_000)
})

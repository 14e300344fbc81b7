import { createHash } from 'node:crypto'
import { PICTURE_URL_PATTERN } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { dataUrl, png } from '../../test/fixtures/pictures'
import { testConfig, useTestApp } from '../../test/test-app'
import { buildApp } from '../app'
import { createPicturesService } from './pictures.service'
import { createPictureSweeper } from './picture-sweeper'

// Issue 54: a picture's url was the sha256 of its bytes, so anyone could test whether the bank holds a figure.
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')
const nameOf = (url: string) => PICTURE_URL_PATTERN.exec(url)![1]!
const DAY = 24 * 60 * 60 * 1000

describe.each(dialects)('picture names on %s', (dialect) => {
  const t = useTestApp(dialect)
  const get = (url: string) => t.app.inject({ method: 'GET', url })

  async function stored(bytes: Buffer) {
    const picture = await createPicturesService(t).store(bytes)
    if (typeof picture === 'string') throw new Error(picture)
    const data = (await t.files.get(`pictures/${nameOf(picture.url)}`))!
    return { ...picture, data }
  }

  /** Every picture's row as a server of before the file store (and of before migration 0021) wrote it. */
  async function asBeforeTheStore() {
    for (const row of await t.db.selectFrom('pictures').select(['hash', 'data_key']).execute()) {
      const data = (await t.files.get(row.data_key!))!
      await t.db
        .updateTable('pictures')
        .set({ data, data_key: null, data_size: null })
        .where('hash', '=', row.hash)
        .execute()
      await t.files.delete(row.data_key!)
    }
  }

  it('names a picture by a hash keyed with the server secret, never the sha256 of its bytes', async () => {
    const sent = await png(30, 20)
    const picture = await stored(sent)
    expect(nameOf(picture.url)).not.toBe(sha256(picture.data))
    expect(nameOf(picture.url)).not.toBe(sha256(sent))
    expect((await get(picture.url)).statusCode).toBe(200)
    // Whoever holds the figure cannot find it by its hash.
    const guessed = await get(`/api/pictures/${sha256(picture.data)}.webp`)
    expect(guessed.statusCode).toBe(404)
    // The same picture again: the same name; under another secret: another.
    expect((await stored(sent)).url).toBe(picture.url)
    const elsewhere = await createPicturesService({ ...t, config: { ...t.config, jwtSecret: 'x'.repeat(40) } }).store(
      sent,
    )
    expect(typeof elsewhere !== 'string' && elsewhere.url).not.toBe(picture.url)
  })

  it('stops serving a deleted picture, from another process within 10 minutes, and the 404 is not cached', async () => {
    const picture = await stored(await png(31, 21))
    const served = await get(picture.url)
    expect(served.statusCode).toBe(200)
    // Never kept by a shared cache (a CDN would serve it to anyone, and go on after it is deleted).
    expect(served.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    // Another process's sweep deletes it (unused for over 30 days); this one holds it in memory.
    t.clock.advance(31 * DAY)
    expect(await createPicturesService(t).deleteUnused()).toBe(1)
    t.clock.advance(10 * 60 * 1000 + 1)
    const gone = await get(picture.url)
    expect(gone.statusCode).toBe(404)
    expect(gone.headers['cache-control']).toBe('no-store')
  })

  it('renames the pictures of an older server at start, with every question and option naming them', async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 1 })
    const body = questionBody({
      image: { picture: dataUrl(await png(40, 30)), caption: { en: 'A map' } },
      options: [
        { text: { en: 'Yes' }, is_correct: true, image: { picture: dataUrl(await png(20, 10)) } },
        { text: { en: 'No' }, is_correct: false },
      ],
    })
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/admin/quizzes/${quiz.id}/questions/`,
      headers,
      payload: body,
    })
    expect(created.statusCode).toBe(201)
    const question = created.json<{ id: number; image: { picture: { url: string } } }>()
    // As migration 0021 finds a database of before it: named by the plain sha256, not keyed.
    await asBeforeTheStore()
    const names = new Map<string, string>()
    for (const { hash, data } of await t.db.selectFrom('pictures').select(['hash', 'data']).execute()) {
      names.set(sha256(data), hash)
      await t.db
        .updateTable('pictures')
        .set({ hash: sha256(data), keyed: 0 })
        .where('hash', '=', hash)
        .execute()
      for (const table of ['question_revisions', 'question_options'] as const)
        await t.db
          .updateTable(table)
          .set({ image_picture: sha256(data) })
          .where('image_picture', '=', hash)
          .execute()
    }
    expect(names.size).toBe(2)
    const plain = [...names.keys()].find((hash) => names.get(hash) === nameOf(question.image.picture.url))!
    // An import's dry run names it by url.
    const admin = (await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id
    const rows = JSON.stringify([{ image: { picture: { url: `/api/pictures/${plain}.webp` } } }])
    const now = t.clock.now()
    await t.db
      .insertInto('imports')
      .values({ created_by: admin, format: 'xlsx', rows, created_at: now, expires_at: now + DAY })
      .execute()
    // Not served by its plain hash even before it is renamed.
    expect((await get(`/api/pictures/${plain}.webp`)).statusCode).toBe(404)

    const app = await buildApp(t, { logger: false })
    await app.ready()
    await app.close()

    const pictures = await t.db.selectFrom('pictures').select(['hash', 'keyed']).orderBy('hash').execute()
    expect(pictures).toEqual([...names.values()].sort().map((hash) => ({ hash, keyed: 1 })))
    const named = [
      ...(await t.db.selectFrom('question_revisions').select('image_picture').execute()),
      ...(await t.db.selectFrom('question_options').select('image_picture').execute()),
    ].flatMap((row) => (row.image_picture ? [row.image_picture] : []))
    expect(named.sort()).toEqual([...names.values()].sort())
    expect((await t.db.selectFrom('imports').select('rows').executeTakeFirstOrThrow()).rows).toBe(
      rows.replace(plain, nameOf(question.image.picture.url)),
    )
    expect((await get(question.image.picture.url)).statusCode).toBe(200)
    expect((await get(`/api/pictures/${plain}.webp`)).statusCode).toBe(404)
    // Renamed into the file store: its new row names a file and holds no bytes.
    for (const row of await t.db.selectFrom('pictures').select(['hash', 'data', 'data_key']).execute()) {
      expect(row.data.length).toBe(0)
      expect(await t.files.exists(row.data_key!)).toBe(true)
    }
  })
  it('names a picture left under its plain hash at the sweep, when the start could not', async () => {
    const picture = await stored(await png(30, 20))
    const keyedName = nameOf(picture.url)
    await asBeforeTheStore()
    await t.db
      .updateTable('pictures')
      .set({ hash: sha256(picture.data), keyed: 0 })
      .where('hash', '=', keyedName)
      .execute()
    const sweeper = createPictureSweeper(
      { config: testConfig({ PICTURE_SWEEP_INTERVAL_MS: '3600000' }) },
      createPicturesService(t),
      { info: () => {}, error: () => {} },
    )
    sweeper.start()
    await expect
      .poll(async () => t.db.selectFrom('pictures').select(['hash', 'keyed']).execute())
      .toEqual([{ hash: keyedName, keyed: 1 }])
    await sweeper.stop()
  })
})

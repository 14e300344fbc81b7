import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser, DEFAULT_PASSWORD } from '../../test/factories'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { dataUrl, png } from '../../test/fixtures/pictures'
import { useTestApp } from '../../test/test-app'
import { inRequestScope } from '../db/request-scope'
import { createInstitutesService } from '../institutes/institutes.service'
import { insertBankQuestion } from '../questions/question-revisions.repository'
import { createPicturesService, UNUSED_FOR } from './pictures.service'

// Decision 100: a picture's URL answers on an institute's host only for a picture that institute stored or uses; the
// same bytes are kept once whoever sends them, and no institute's deletion takes another's picture.
describe.each(dialects)('pictures per institute on %s', (dialect) => {
  const t = useTestApp(dialect, { BASE_DOMAIN: 'quiz.example.np' })
  const MAIN = 'main.example.np'
  const OTHER = 'other.example.np'

  async function twoInstitutes() {
    await sql`insert into institute_hosts (host, institute_id) values (${MAIN}, 1)`.execute(t.db)
    const other = await createInstitutesService({ database: t.database, config: t.config, clock: t.clock }).create({
      slug: 'other',
      name: { en: 'Other' },
      hosts: [OTHER],
    })
    return other
  }
  const get = (host: string, url: string) => t.app.inject({ method: 'GET', url, headers: { host } })
  const storeIn = async (institute: number, colour: string) => {
    const bytes = await png(20, 20, { colour })
    const picture = await inRequestScope({ requestId: 't', institute }, () => createPicturesService(t).store(bytes))
    if (typeof picture === 'string') throw new Error(picture)
    return picture
  }

  it("answers a picture on the hosts of the institutes that stored it, and 404 on another's", async () => {
    const other = await twoInstitutes()
    const mine = await storeIn(1, '#101010')
    const theirs = await storeIn(other, '#202020')
    expect((await get(MAIN, mine.url)).statusCode).toBe(200)
    expect((await get(OTHER, mine.url)).statusCode).toBe(404)
    expect((await get(OTHER, theirs.url)).statusCode).toBe(200)
    const refused = await get(MAIN, theirs.url)
    expect(refused.statusCode).toBe(404)
    expect(refused.json()).toMatchObject({ code: 'not_found' })
  })

  it('keeps the same bytes once when both send them, and answers on both hosts', async () => {
    const other = await twoInstitutes()
    const first = await storeIn(1, '#303030')
    const second = await storeIn(other, '#303030')
    expect(second.url).toBe(first.url)
    expect(await t.db.selectFrom('pictures').select('hash').execute()).toHaveLength(1)
    expect((await get(MAIN, first.url)).statusCode).toBe(200)
    expect((await get(OTHER, first.url)).statusCode).toBe(200)
  })

  it("refuses a question naming another institute's picture by its URL, and stores nothing", async () => {
    const other = await twoInstitutes()
    const theirs = await storeIn(other, '#404040')
    const admin = await createUser(t.database, { is_admin: 1 })
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/bank/questions/',
      headers: { host: MAIN, ...(await bearerFor(t.tokens, admin)) },
      payload: { ...questionBody({ text: { en: 'Borrowed?', ne: '' } }), image: { picture: { url: theirs.url } } },
    })
    expect(response.statusCode).toBe(400)
    expect(Object.keys(response.json<{ errors: Record<string, unknown> }>().errors)).toContain('image.picture')
    expect((await get(MAIN, theirs.url)).statusCode).toBe(404)
    expect(await t.db.selectFrom('questions').select('id').execute()).toEqual([])
  })

  it("records the picture a question stores in the request's institute, so its own host answers it", async () => {
    const other = await twoInstitutes()
    const admin = await createUser(t.database, { is_admin: 1, institute: other })
    const access = await t.tokens.signAccess({
      id: admin.id,
      username: admin.username,
      is_admin: true,
      is_marker: false,
      institute: 'other',
    })
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/bank/questions/',
      headers: { host: OTHER, authorization: `Bearer ${access}` },
      payload: { ...questionBody(), image: { picture: dataUrl(await png(30, 20, { colour: '#505050' })) } },
    })
    expect(response.statusCode, response.body).toBe(201)
    const { url } = response.json<{ image: { picture: { url: string } } }>().image.picture
    expect((await get(OTHER, url)).statusCode).toBe(200)
    expect((await get(MAIN, url)).statusCode).toBe(404)
  })

  it("sweeps deployment-wide whoever runs it: a picture one institute dropped stays while another's question uses it", async () => {
    const other = await twoInstitutes()
    const shared = await storeIn(1, '#606060')
    await storeIn(other, '#606060')
    // Only the other institute's question names it; the sweep runs in the first institute's scope.
    await inRequestScope({ requestId: 't', institute: other }, () =>
      insertBankQuestion(
        t.db,
        {
          text: { en: 'Which map?', ne: '' },
          hint: null,
          topic: '',
          image: { picture: shared, caption: { en: '', ne: '' } },
          options: [
            { text: { en: 'This', ne: '' }, is_correct: true, image: null },
            { text: { en: 'That', ne: '' }, is_correct: false, image: null },
          ],
        },
        t.clock.now(),
      ),
    )
    t.clock.advance(UNUSED_FOR + 1)
    const sweep = () => inRequestScope({ requestId: 't', institute: 1 }, () => createPicturesService(t).deleteUnused())
    expect(await sweep()).toBe(0)
    expect((await get(OTHER, shared.url)).statusCode).toBe(200)
    // Once no institute's row names it, it goes, and its uses with it.
    await t.db.updateTable('question_revisions').set({ image_picture: null }).execute()
    expect(await sweep()).toBe(1)
    expect(await t.db.selectFrom('picture_uses').select('hash').execute()).toEqual([])
  })

  it("answers an institute's logo on its own host, set by a platform admin on the platform's", async () => {
    const other = await twoInstitutes()
    const admin = await createUser(t.database, { is_platform_admin: 1 })
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { host: 'quiz.example.np' },
      payload: { username: admin.username, password: DEFAULT_PASSWORD },
    })
    expect(signedIn.statusCode, signedIn.body).toBe(200)
    const logo = { picture: dataUrl(await png(40, 20, { colour: '#1f6feb' })) }
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/platform/institutes/${other}/`,
      headers: { host: 'quiz.example.np', authorization: `Bearer ${signedIn.json<{ access: string }>().access}` },
      payload: { logo },
    })
    expect(changed.statusCode, changed.body).toBe(200)
    const { url } = changed.json<{ logo: { url: string } }>().logo
    expect((await get(OTHER, '/api/institute/')).json()).toMatchObject({ logo: { url } })
    expect((await get(OTHER, url)).statusCode).toBe(200)
    expect((await get(MAIN, url)).statusCode).toBe(404)
  })
})

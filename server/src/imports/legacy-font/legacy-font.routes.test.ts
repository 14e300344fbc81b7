import { describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { bearerFor, createUser } from '../../../test/factories'
import { useTestApp } from '../../../test/test-app'

const URL = '/api/admin/tools/legacy-font/'

describe.each(dialects)('POST /api/admin/tools/legacy-font/ on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function adminHeaders() {
    return bearerFor(t.tokens, await createUser(t.database, { is_admin: 1, username: 'boss' }))
  }

  const post = (headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'POST', url: URL, headers, payload: payload as object })

  it("converts an admin's Preeti text to Unicode", async () => {
    const response = await post(await adminHeaders(), {
      text: `g]kfnsf] ;+ljwfg @)&@ cg';f/ g]kfndf slt k|b]z 5g\\ <\nnf]s ;]jf cfof]u`,
      font: 'preeti',
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      unicode: 'नेपालको संविधान २०७२ अनुसार नेपालमा कति प्रदेश छन् ?\nलोक सेवा आयोग',
    })
  })

  it("converts Preeti's high characters and फ्र: quotation marks, ॐ, झ", async () => {
    const response = await post(await adminHeaders(), { text: 'ç æk|mfG;Æ …´f]nfÚ', font: 'preeti' })
    expect(response.json()).toEqual({ unicode: 'ॐ “फ्रान्स” ‘झोला’' })
  })

  it('converts Kantipur text, and an empty text to an empty one', async () => {
    const headers = await adminHeaders()
    const kantipur = await post(headers, { text: 'wd{ sfo{', font: 'kantipur' })
    expect(kantipur.statusCode).toBe(200)
    expect(kantipur.json()).toEqual({ unicode: 'धर्म कार्य' })
    const empty = await post(headers, { text: '', font: 'preeti' })
    expect(empty.json()).toEqual({ unicode: '' })
  })

  it('converts 100,000 characters', async () => {
    const response = await post(await adminHeaders(), { text: 'g]kfn '.repeat(100_000 / 6), font: 'preeti' })
    expect(response.statusCode).toBe(200)
    expect(response.json().unicode).toBe('नेपाल '.repeat(100_000 / 6))
  })

  it('answers 401 without a token', async () => {
    const response = await post({}, { text: 'g]kfn', font: 'preeti' })
    expect(response.statusCode).toBe(401)
    expect(response.json().code).toBe('not_authenticated')
  })

  it('answers 403 to a learner, even with a bad body', async () => {
    const learner = await createUser(t.database)
    const headers = await bearerFor(t.tokens, learner)
    for (const payload of [{ text: 'g]kfn', font: 'preeti' }, { font: 'sagarmatha' }]) {
      const response = await post(headers, payload)
      expect(response.statusCode).toBe(403)
      expect(response.json().code).toBe('permission_denied')
    }
  })

  it.each([
    ['a font we do not convert', { text: 'g]kfn', font: 'sagarmatha' }, 'font', 'Choose "preeti" or "kantipur"'],
    ['no font', { text: 'g]kfn' }, 'font', 'This field is required.'],
    ['no text', { font: 'preeti' }, 'text', 'This field is required.'],
    ['a null text', { text: null, font: 'preeti' }, 'text', 'This field may not be null.'],
    ['a text that is no string', { text: 42, font: 'preeti' }, 'text', ''],
    ['a text over 100,000 characters', { text: 'f'.repeat(100_001), font: 'preeti' }, 'text', '100000 characters'],
  ])('answers 400 to %s, naming the field', async (_case, payload, field, message) => {
    const response = await post(await adminHeaders(), payload)
    expect(response.statusCode).toBe(400)
    const body = response.json()
    expect(body.code).toBe('validation_error')
    expect(Object.keys(body.errors)).toEqual([field])
    expect(body.errors[field][0]).toContain(message)
  })

  it('is described in the API document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
    // The document names paths without their trailing slash, as it does for every route.
    expect(response.json().paths).toHaveProperty(['/api/admin/tools/legacy-font', 'post'])
  })

  it('answers 415 to a body that is not JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...(await adminHeaders()), 'content-type': 'text/plain' },
      payload: 'g]kfn',
    })
    expect(response.statusCode).toBe(415)
  })
})

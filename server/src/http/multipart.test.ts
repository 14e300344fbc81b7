import multipartPlugin from '@fastify/multipart'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { multipart } from '../../test/auth-requests'
import { registerErrorHandlers } from './errors'
import { parseFields } from './field-errors'
import { readMultipartForm, type MultipartRules } from './multipart'

const rules: MultipartRules = {
  fileField: 'upload',
  limits: { fileSize: 10, files: 1, fields: 2, fieldSize: 100 },
  notMultipart: 'Send it as multipart/form-data.',
  fileTooLarge: 'The file must be at most 10 bytes.',
  tooManyParts: 'The form has too many parts.',
}
const FieldsSchema = z.object({ name: z.string().min(1), size: z.enum(['s', 'm']).optional() })

describe('readMultipartForm and parseFields', () => {
  const app = Fastify()
  beforeAll(async () => {
    registerErrorHandlers(app)
    await app.register(multipartPlugin)
    app.post('/form', async (request) => {
      const form = await readMultipartForm(request, rules)
      return {
        fields: parseFields(FieldsSchema, form.fields),
        file: form.file && { name: form.file.name, text: form.file.bytes.toString() },
      }
    })
    await app.ready()
  })
  afterAll(() => app.close())

  const send = (body: { payload: Buffer | string; headers: Record<string, string> }) =>
    app.inject({ method: 'POST', url: '/form', payload: body.payload, headers: body.headers })
  const file = (field: string, text: string) => ({
    field,
    filename: 'a.txt',
    contentType: 'text/plain',
    data: Buffer.from(text),
  })

  it('reads the fields and the route’s file; an empty file part or another field’s file is no file', async () => {
    const read = await send(multipart({ name: 'Maya', size: 'm' }, [file('upload', 'hello')]))
    expect(read.statusCode).toBe(200)
    expect(read.json()).toEqual({ fields: { name: 'Maya', size: 'm' }, file: { name: 'a.txt', text: 'hello' } })
    for (const files of [[file('upload', '')], [file('other', 'hello')], []]) {
      const none = await send(multipart({ name: 'Maya' }, files))
      expect(none.json()).toEqual({ fields: { name: 'Maya' }, file: null })
    }
  })

  it('answers 400 validation_error with every field’s problem at its path', async () => {
    const refused = await send(multipart({ name: '', size: 'xl' }))
    expect(refused.statusCode).toBe(400)
    const body = refused.json()
    expect(body).toMatchObject({ code: 'validation_error', detail: 'Some fields are invalid.' })
    expect(Object.keys(body.errors).sort()).toEqual(['name', 'size'])
  })

  it('refuses a body that is not multipart with 415, a file too large or too many parts with 413', async () => {
    const json = await send({ payload: '{"name":"Maya"}', headers: { 'content-type': 'application/json' } })
    expect(json.statusCode).toBe(415)
    expect(json.json()).toEqual({ code: 'unsupported_media_type', detail: rules.notMultipart })

    const large = await send(multipart({ name: 'Maya' }, [file('upload', 'more than ten bytes')]))
    expect(large.statusCode).toBe(413)
    expect(large.json()).toEqual({ code: 'payload_too_large', detail: rules.fileTooLarge })

    for (const body of [
      multipart({ name: 'Maya', size: 's', extra: 'x' }),
      multipart({ name: 'Maya' }, [file('upload', 'a'), file('upload', 'b')]),
    ]) {
      const many = await send(body)
      expect(many.statusCode).toBe(413)
      expect(many.json()).toEqual({ code: 'payload_too_large', detail: rules.tooManyParts })
    }
  })

  it('answers 400 to a malformed or truncated body', async () => {
    const whole = multipart({ name: 'Maya' })
    for (const payload of [Buffer.from('not multipart at all'), whole.payload.subarray(0, whole.payload.length - 20)]) {
      const refused = await send({ payload, headers: whole.headers })
      expect(refused.statusCode).toBe(400)
      expect(refused.json()).toEqual({ code: 'validation_error', detail: 'Malformed multipart body.' })
    }
  })
})

import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { createSerializerCompiler, SerializedOnce } from './serializer'

const Schema = z.object({ id: z.number().int(), text: z.string(), note: z.string().nullable() })

const serializerFor = (check: boolean) =>
  createSerializerCompiler({ check })({ schema: Schema, method: 'GET', url: '/api/things/:id/' })

describe('responses written by the route schema', () => {
  it('writes a body once and sends that string to every request after, as the object itself would be written', () => {
    const serialize = serializerFor(false)
    const value = { id: 7, text: 'क "quoted"', note: null }
    const body = new SerializedOnce(value)
    const first = serialize(body)
    expect(first).toBe(serialize(value))
    // A change to the object after its first writing is not seen: the string is what is sent.
    value.text = 'changed'
    expect(serialize(body)).toBe(first)
  })

  it('keeps the whitelist: a field outside the schema is not written', () => {
    const serialize = serializerFor(false)
    const body = new SerializedOnce({ id: 1, text: 'a', note: 'n', is_correct: true })
    expect(JSON.parse(serialize(body))).toEqual({ id: 1, text: 'a', note: 'n' })
  })

  it('writes it afresh for another schema', () => {
    const body = new SerializedOnce({ id: 1, text: 'a', note: null })
    const other = createSerializerCompiler({ check: false })({
      schema: z.object({ id: z.number().int() }),
      method: 'GET',
      url: '/api/other/',
    })
    expect(serializerFor(false)(body)).toBe('{"id":1,"text":"a","note":null}')
    expect(other(body)).toBe('{"id":1}')
  })

  it('checks a body written once as any other when responses are checked', () => {
    const serialize = serializerFor(true)
    expect(serialize(new SerializedOnce({ id: 1, text: 'a', note: null }))).toBe('{"id":1,"text":"a","note":null}')
    expect(() => serialize(new SerializedOnce({ id: 1.5, text: 'a', note: null }))).toThrow()
  })
})

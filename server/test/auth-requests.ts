// Helpers shared by the auth and users tests (a test helper: outside src/, so not part of the server build).
import { expect } from 'vitest'
import type { App } from '../src/app'

export const decodeJwtPart = (token: string, index: 0 | 1) =>
  JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString('utf8')) as Record<string, unknown>

export async function post(app: App, url: string, payload: unknown, remoteAddress = '127.0.0.1') {
  return app.inject({ method: 'POST', url, payload: payload as object, remoteAddress })
}

/** Sends and verifies a registration code, so the phone counts as verified for registration. */
export async function verifyPhoneForRegistration(
  t: { app: App; sms: { lastCode(phone: string, purpose?: 'login' | 'register' | 'reset'): string } },
  phone: string,
) {
  const sent = await post(t.app, '/api/users/otp/send/', { phone_number: phone, purpose: 'register' })
  expect(sent.statusCode).toBe(200)
  const verified = await post(t.app, '/api/users/otp/verify/', {
    phone_number: phone,
    purpose: 'register',
    otp: t.sms.lastCode(phone, 'register'),
  })
  expect(verified.json()).toEqual({ verified: true })
}

export async function login(app: App, username: string, password: string) {
  const response = await post(app, '/api/token/', { username, password })
  expect(response.statusCode).toBe(200)
  return response.json() as { access: string; refresh: string }
}

/** A multipart/form-data body built by hand, as a browser would send it. */
export function multipart(
  fields: Record<string, string>,
  files: { field: string; filename: string; contentType: string; data: Buffer }[] = [],
) {
  const boundary = `----quiz-test-${Math.random().toString(16).slice(2)}`
  const chunks: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

/** `POST /api/admin/imports/` as the admin form sends it: its fields, and the file when there is one. */
export function postImport(
  app: App,
  headers: Record<string, string>,
  fields: Record<string, string>,
  file?: { data: Buffer; filename: string } | null,
) {
  const form = multipart(
    fields,
    file ? [{ field: 'file', filename: file.filename, contentType: 'application/octet-stream', data: file.data }] : [],
  )
  return app.inject({
    method: 'POST',
    url: '/api/admin/imports/',
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  })
}

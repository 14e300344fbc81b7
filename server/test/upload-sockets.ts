import http from 'node:http'
import net from 'node:net'
import { multipart } from './auth-requests'

// Uploads over real sockets, for what an injected request cannot do: stop mid-body, go quiet, trickle, drop.

export interface SentUpload {
  status: number
  ms: number
  body: { code?: string; detail?: string }
}

/** A whole multipart upload of `data` in the field `image` over a real connection. */
export function postPhoto(port: number, path: string, bearer: Record<string, string>, data: Buffer, method = 'POST') {
  const form = multipart({}, [{ field: 'image', filename: 'page.jpg', contentType: 'image/jpeg', data }])
  return postForm(port, path, bearer, form, method)
}

export function postForm(
  port: number,
  path: string,
  bearer: Record<string, string>,
  form: { payload: Buffer; headers: Record<string, string> },
  method = 'POST',
): Promise<SentUpload> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      path,
      method,
      headers: { ...bearer, ...form.headers, 'content-length': form.payload.length },
    })
    request.on('response', (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        resolve({ status: response.statusCode!, ms: performance.now() - started, body: text ? JSON.parse(text) : {} })
      })
    })
    request.on('error', reject)
    request.end(form.payload)
  })
}

/**
 * An upload of `declared` bytes whose first `sent` bytes only are written: the caller then drops it (`destroy()`),
 * trickles more (`write`) or leaves it quiet. `answer` is the status line the server sent, if any; `closed` settles
 * when the connection ends, from either side.
 */
export function partialUpload(
  port: number,
  path: string,
  bearer: Record<string, string>,
  { declared = 1_000_000, sent = 64 * 1024 } = {},
) {
  const boundary = '----quiz-partial'
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="page.jpg"\r\n` +
      'Content-Type: image/jpeg\r\n\r\n',
  )
  const socket = net.connect(port, '127.0.0.1')
  socket.on('error', () => {})
  let answer = ''
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  const headers = Object.entries({ ...bearer, 'content-type': `multipart/form-data; boundary=${boundary}` })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}content-length: ${declared}\r\n\r\n`)
  socket.write(Buffer.concat([head, Buffer.alloc(Math.max(0, sent - head.length), 0xab)]))
  return {
    socket,
    closed,
    status: () => Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0),
    write: (bytes: number) => socket.write(Buffer.alloc(bytes, 0xab)),
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves once `check()` holds, or rejects after `ms`. */
export async function until(check: () => boolean, ms: number, what: string) {
  const end = performance.now() + ms
  while (!check()) {
    if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`)
    await sleep(20)
  }
}

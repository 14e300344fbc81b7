import { spawn } from 'node:child_process'
import { once } from 'node:events'
import http from 'node:http'
import { createServer } from 'node:net'
import path from 'node:path'

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  await once(server, 'close')
  return port
}

/** One request on a connection of its own (no keep-alive pool hides a refused connection); rejects on a socket error. */
export function request(
  baseUrl: string,
  method: string,
  url: string,
  { body, headers = {} }: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown }> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${url}`, {
      method,
      agent: false,
      headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
    })
    req.on('response', (res) => {
      let text = ''
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }))
    })
    req.on('error', reject)
    req.end(payload)
  })
}

/** The server as `npm start` runs it (src/main.ts through tsx), in its own process, on `dataDir`'s SQLite file. */
export async function startServerProcess(env: Record<string, string>) {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../src/main.ts')], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      WEB_DIST: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout.on('data', (chunk) => (log += chunk))
  child.stderr.on('data', (chunk) => (log += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const baseUrl = `http://127.0.0.1:${port}`
  for (let tries = 0; ; tries++) {
    const health = await request(baseUrl, 'GET', '/api/health').catch(() => undefined)
    if (health?.status === 200) break
    if (child.exitCode !== null || tries > 600) throw new Error(`the server did not start:\n${log}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, port, baseUrl, exited, log: () => log }
}

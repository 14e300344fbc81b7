import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { once } from 'node:events'
import http from 'node:http'
import { createServer } from 'node:net'
import path from 'node:path'

const serverRoot = path.join(import.meta.dirname, '..')

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  await once(server, 'close')
  return port
}

export interface Answer {
  status: number
  /** The parsed JSON, or the text of a response that is not JSON (metrics). */
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of many routes
}

/**
 * One request on a connection of its own: no keep-alive pool hides a refused connection, and with WORKERS
 * consecutive requests reach different processes. Rejects on a socket error.
 */
export function request(
  baseUrl: string,
  method: string,
  url: string,
  { body, headers = {}, token }: { body?: unknown; headers?: Record<string, string>; token?: string } = {},
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${url}`, {
      method,
      agent: false,
      headers: {
        ...headers,
        ...(payload && { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
    })
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => {
        const json = text && res.headers['content-type']?.includes('json')
        resolve({ status: res.statusCode!, body: json ? JSON.parse(text) : text || undefined })
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

/**
 * One of the server's programs (`main`, `cli/backup`, ...) in a process of its own, with no settings of this
 * process but PATH: from its source through tsx, or `built` from dist/ as `npm start` runs it after a build.
 */
export function spawnServerProgram(
  program: string,
  args: string[],
  env: Record<string, string>,
  { built = false, ...options }: SpawnOptions & { built?: boolean } = {},
) {
  const entry = built ? [`dist/${program}.js`] : ['--import', 'tsx', `src/${program}.ts`]
  return spawn(process.execPath, [...entry, ...args], {
    cwd: serverRoot,
    env: { PATH: process.env.PATH, NODE_ENV: 'development', ...env },
    ...options,
  })
}

interface ServerProcessOptions {
  /** dist/main.js instead of src/main.ts: it starts in a second where tsx takes many (build it first). */
  built?: boolean
  /** What must hold, besides a healthy answer, before the server counts as started. */
  ready?: (child: ChildProcess) => boolean
}

/** The server as `npm start` runs it, in its own process on a free port, started once its health answers 200. */
export async function startServerProcess(
  settings: Record<string, string>,
  { built, ready = () => true }: ServerProcessOptions = {},
) {
  const port = await freePort()
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    WEB_DIST: '/nonexistent',
    ...settings,
  }
  const child = spawnServerProgram('main', [], env, { built, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  child.stdout!.on('data', (chunk) => (log += chunk))
  child.stderr!.on('data', (chunk) => (log += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const baseUrl = `http://127.0.0.1:${port}`
  for (let tries = 0; ; tries++) {
    const health = await request(baseUrl, 'GET', '/api/health').catch(() => undefined)
    if (health?.status === 200 && ready(child)) break
    if (child.exitCode !== null || tries > 600) throw new Error(`the server did not start:\n${log}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, port, baseUrl, env, exited, log: () => log }
}

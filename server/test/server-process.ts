import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import http from 'node:http'
import path from 'node:path'

const serverRoot = path.join(import.meta.dirname, '..')

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

/**
 * The server as `npm start` runs it, in its own process, started once its health answers 200. It listens on a
 * port the system picks (PORT=0; with WORKERS, Node's cluster gives every worker that one port) and the port is
 * read from its log (so LOG_LEVEL must let info through): a port found free beforehand can be taken by any other
 * socket before the server binds it.
 */
export async function startServerProcess(
  settings: Record<string, string>,
  { built, ready = () => true }: ServerProcessOptions = {},
) {
  const env = {
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    WEB_DIST: '/nonexistent',
    // A busy test machine's event-loop lag is not overload (as under NODE_ENV=test): shedding would answer a test's
    // request 503. A test of shedding sets its own threshold.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...settings,
  }
  const child = spawnServerProgram('main', [], env, { built, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  let resolvePort: (port: number) => void
  const listening = new Promise<number>((resolve) => (resolvePort = resolve))
  const onOutput = (chunk: Buffer) => {
    log += chunk
    const port = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1]
    if (port) resolvePort(Number(port))
  }
  child.stdout!.on('data', onOutput)
  child.stderr!.on('data', onOutput)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const port = await Promise.race([listening, exited.then(() => undefined)])
  if (port === undefined) throw new Error(`the server did not start:\n${log}`)
  const baseUrl = `http://127.0.0.1:${port}`
  for (let tries = 0; ; tries++) {
    const health = await request(baseUrl, 'GET', '/api/health').catch(() => undefined)
    if (health?.status === 200 && ready(child)) break
    if (child.exitCode !== null || tries > 600) throw new Error(`the server did not start:\n${log}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, port, baseUrl, env, exited, log: () => log }
}

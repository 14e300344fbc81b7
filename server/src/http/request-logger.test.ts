import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { describe, expect, it, vi } from 'vitest'
import { lazyChildLoggers } from './request-logger'

function capture(level: string) {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>)
      done()
    },
  })
  // Fastify's own pino, as app.ts makes it.
  return { logger: Fastify({ logger: { level, stream } }).log, lines }
}

describe('lazyChildLoggers', () => {
  it('makes no child for a request that logs nothing at a level that is on', () => {
    const { logger } = capture('warn')
    const child = vi.spyOn(logger, 'child')
    const log = lazyChildLoggers(logger, { reqId: 'req-1' }, {})
    log.info('incoming request')
    log.debug('detail')
    expect(child).not.toHaveBeenCalled()
    expect(log.level).toBe('warn')
  })

  it('writes what the child would write, bindings and all, once a level that is on is used', () => {
    const { logger, lines } = capture('warn')
    const log = lazyChildLoggers(logger, { reqId: 'req-2' }, {})
    log.info('not written')
    log.warn({ detail: 1 }, 'written')
    log.error('also written')
    expect(lines.map(({ reqId, msg, detail }) => ({ reqId, msg, detail }))).toEqual([
      { reqId: 'req-2', msg: 'written', detail: 1 },
      { reqId: 'req-2', msg: 'also written', detail: undefined },
    ])
  })

  it("keeps a route's own level and a level set later", () => {
    const { logger, lines } = capture('warn')
    const routeLevel = lazyChildLoggers(logger, { reqId: 'req-3' }, { level: 'info' })
    routeLevel.info('at the route level')
    const raised = lazyChildLoggers(logger, { reqId: 'req-4' }, {})
    raised.level = 'debug'
    raised.debug('after the change')
    const silent = lazyChildLoggers(logger, { reqId: 'req-5' }, { level: 'silent' })
    silent.fatal('never')
    expect(lines.map(({ reqId, msg }) => `${String(reqId)} ${String(msg)}`)).toEqual([
      'req-3 at the route level',
      'req-4 after the change',
    ])
  })

  it("is Fastify's request logger: a request's error is logged with its request id", async () => {
    const { logger, lines } = capture('warn')
    const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyChildLoggers })
    app.get('/fails', () => {
      throw new Error('broken')
    })
    app.get('/works', (request) => {
      request.log.info('quiet at warn')
      return { ok: true }
    })
    expect((await app.inject({ method: 'GET', url: '/works' })).statusCode).toBe(200)
    expect((await app.inject({ method: 'GET', url: '/fails' })).statusCode).toBe(500)
    await app.close()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 50, reqId: expect.any(String), err: { message: 'broken' } })
  })
})

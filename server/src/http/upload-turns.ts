import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { abandonDecodeLine, photoUploadTurn, uploadTurnLimits } from '../lib/decode-gate'
import { AppError } from './errors'
import { drainingDetail } from './draining'

// A photo upload's turn, given back however its request ends (docs/decisions/088).

export const uploadLimits = {
  /** Seconds without a byte of the body, once its turn came, before the connection is ended. */
  idleSeconds: 10,
  /** The body must be whole within this many seconds of its turn, and one more for each `bytesPerSecond` declared. */
  startSeconds: 20,
  /** 256 kbit/s: a phone on a poor 3G link still sends a 3 MB photo in about two minutes. */
  bytesPerSecond: 32 * 1024,
}

declare module 'fastify' {
  interface FastifyInstance {
    uploadsInFlight: Set<AbortController>
  }
}

/** Stopping the server answers 503 to photos still arriving or waiting, and to pictures waiting for a decode slot. */
export function registerUploadTurns(app: FastifyInstance) {
  const inFlight = new Set<AbortController>()
  app.decorate('uploadsInFlight', inFlight)
  app.addHook('preClose', (done) => {
    const closing = new AppError(503, 'service_unavailable', drainingDetail, undefined, {
      'retry-after': '5',
      connection: 'close',
    })
    for (const controller of inFlight) controller.abort(closing)
    abandonDecodeLine(closing)
    done()
  })
}

// The client's fault, not the server's: never a 500 logged.
const uploadEnded = (why: string) =>
  new AppError(400, 'validation_error', `The photo's upload was ${why}: send it again.`)

/** Runs `work` in its turn of `photoUploadTurn`, weighed by declared length, per user; `refuse()` when all taken. */
export function uploadTurn<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  bodyLimit: number,
  work: () => Promise<T>,
  refuse: () => Error,
): Promise<T> {
  const raw = request.raw
  const socket = raw.socket
  const controller = new AbortController()
  const declared = Number(raw.headers['content-length'])
  const weight = Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, bodyLimit) : bodyLimit
  // A connection dropped, stalled or too slow while its body is owed is ended: nothing will read the rest.
  const end = (why: string) => {
    if (raw.complete || controller.signal.aborted) return
    controller.abort(uploadEnded(why))
    socket.destroy?.()
  }
  const onClose = () => end('dropped')
  const onIdle = () => end('stalled, no byte arriving')
  socket.once('close', onClose)
  const inFlight = request.server.uploadsInFlight
  inFlight?.add(controller)
  let deadline: NodeJS.Timeout | undefined
  return photoUploadTurn(
    async () => {
      deadline = setTimeout(
        () => end('too slow for its size'),
        (uploadLimits.startSeconds + weight / uploadLimits.bytesPerSecond) * 1000,
      )
      // Node ends a socket that times out unless someone listens: the response listens, and ends only an owed body.
      socket.setTimeout?.(uploadLimits.idleSeconds * 1000)
      reply.raw.on('timeout', onIdle)
      return work()
    },
    refuse,
    {
      owner: request.user?.id,
      ownerLimit: request.user?.is_admin ? uploadTurnLimits.perAdmin : uploadTurnLimits.perUser,
      signal: controller.signal,
      weight,
    },
  ).finally(() => {
    clearTimeout(deadline)
    // Once answered, Node's keep-alive timeout replaces ours; an injected request's socket has none.
    if (!reply.raw.writableFinished) socket.setTimeout?.(0)
    reply.raw.off('timeout', onIdle)
    socket.off('close', onClose)
    inFlight?.delete(controller)
  })
}

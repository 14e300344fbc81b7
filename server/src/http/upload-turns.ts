import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { abandonDecodeLine, photoUploadTurn, uploadTurnLimits } from '../lib/decode-gate'
import { AppError } from './errors'
import { drainingDetail } from './draining'

// A photo upload's turn, given back however its request ends: answered, refused, dropped by the client, stalled, too
// slow, or cut by the server stopping (docs/decisions/088).

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

/**
 * Stopping the server does not wait for a photo still arriving or waiting its turn, nor for any picture (a profile's,
 * a question's) waiting for a decode slot: each is answered 503 as the draining hook answers new requests.
 */
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

// What the request ends with when its connection was ended: a client's fault, not the server's (never a 500 logged);
// nobody reads it but the log.
const uploadEnded = (why: string) =>
  new AppError(400, 'validation_error', `The photo's upload was ${why}: send it again.`)

/**
 * Runs `work` (which reads the body and handles the photo) in its turn of `photoUploadTurn`, weighed by the body's
 * declared length, counted against the signed-in user; `refuse()` when the turns or the user's own are all taken.
 */
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
    // Once the answer is sent, Node has set the socket's keep-alive timeout in place of ours: leave it. An injected
    // request's socket (light-my-request) has no timeout.
    if (!reply.raw.writableFinished) socket.setTimeout?.(0)
    reply.raw.off('timeout', onIdle)
    socket.off('close', onClose)
    inFlight?.delete(controller)
  })
}

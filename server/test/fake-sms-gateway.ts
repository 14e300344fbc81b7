import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { EventEmitter, once } from 'node:events'
import type { AddressInfo } from 'node:net'

interface Received {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/** A real HTTP server on a free local port that plays an SMS gateway; each test sets how it answers. */
export class FakeGateway {
  received: Received[] = []
  answer: (response: ServerResponse) => void = (response) => response.writeHead(200).end()
  private held: ServerResponse[] = []
  private arrivals = new EventEmitter()
  private server: Server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      this.received.push({ method: request.method!, url: request.url!, headers: request.headers, body })
      this.answer(response)
      this.arrivals.emit('request')
    })
  })

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
  }
  url(path = '/send') {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`
  }
  async stop() {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
  json(status: number, body: unknown) {
    this.answer = (response) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }
  /** Accepts the request and never answers. */
  hang() {
    this.answer = () => {}
  }
  /** Keeps every request waiting until release() accepts them all. */
  hold() {
    this.answer = (response) => this.held.push(response)
  }
  release() {
    for (const response of this.held.splice(0)) response.writeHead(200).end()
  }
  /** Resolves once `count` requests in all have arrived. */
  async arrived(count: number) {
    while (this.received.length < count) await once(this.arrivals, 'request')
  }
}

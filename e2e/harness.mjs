// What the e2e journeys and the benches share: a free port, waiting for a started server, the system's Chromium.
// Plain JavaScript because the benches run on Node 20 with no TypeScript loader; harness.d.mts types it for e2e.
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { chromium } from 'playwright-core'

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Resolves once the server at `baseUrl` answers its health check; rejects if `child` exits or 30 s pass first. */
export async function waitForHealth(baseUrl, child) {
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      const response = await fetch(`${baseUrl}/api/health`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start within 30 s')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function chromiumPath() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ]
  const found = candidates.find((candidate) => candidate && existsSync(candidate))
  if (!found) throw new Error('Chromium not found: install Debian chromium or set CHROMIUM_PATH')
  return found
}

/**
 * Headless Chromium without the background traffic (updates, sync, QUIC) that would blur what a test measures;
 * `extraArgs` add switches (a fake camera's: e2e/fake-camera.ts).
 */
export function launchBrowser(extraArgs = []) {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  })
}

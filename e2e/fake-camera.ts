import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'
import { launchBrowser } from './harness.mjs'

/**
 * Chromium whose camera shows `photo`, for the "Scan sheets" screen's shutter. Chromium's fake camera plays a file:
 * an MJPEG stream is JPEG frames one after the other, written to `video` (kept with the journey's artifacts). The
 * file is read when the camera starts, so one browser shows one photo: a journey launches one per photo it takes.
 */
export async function launchWithFakeCamera(photo: Buffer, video: string): Promise<Browser> {
  mkdirSync(path.dirname(video), { recursive: true })
  writeFileSync(video, Buffer.concat([photo, photo, photo]))
  return launchBrowser([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ])
}

/**
 * The scan screen's shutter, once the camera is on and its video shows frames: the fake camera takes seconds to start
 * on a busy machine, well past `expect.poll`'s one second.
 */
export async function cameraShutter(page: Page, name = 'Take photo') {
  const shutter = page.getByRole('button', { name })
  const patience = { timeout: 20_000 }
  await expect.poll(() => shutter.isEnabled(), patience).toBe(true)
  await expect
    .poll(() => page.locator('video').evaluate((video: HTMLVideoElement) => video.videoWidth), patience)
    .toBeGreaterThan(0)
  return shutter
}

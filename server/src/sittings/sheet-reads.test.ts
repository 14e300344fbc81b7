import { describe, expect, it, vi } from 'vitest'
import { markedSheetSvg, photographSheet, type SheetSpec } from '../../test/fixtures/sheet-photos'
import { withDecodeSlot } from '../lib/decode-gate'
import { readSheet } from './reader/read-sheet'
import { readSheetInWorker, type SheetJob } from './sheet-reads'

// The main thread's reader is a spy; the worker loads its own, real one.
vi.mock('./reader/read-sheet', async (importOriginal) => {
  const real = await importOriginal<typeof import('./reader/read-sheet')>()
  return { ...real, readSheet: vi.fn(real.readSheet) }
})

const secret = 'sheet-reads-secret'
const optionCounts = [4, 4, 4]
const spec: SheetSpec = {
  secret,
  sittingId: 3,
  labels: 'latin',
  optionCounts,
  holder: { kind: 'roster', learnerName: 'Sita Sharma', rollNumber: 7, set: 'A' },
  marks: optionCounts.map((_, question) => ({ question, option: 1, style: 'pen' as const })),
}

async function job(): Promise<SheetJob> {
  const photo = await photographSheet(markedSheetSvg(spec, 1), {
    seed: 1,
    megapixels: 2,
    fill: 0.8,
    tiltDeg: 3,
    rotation: 0,
    smallAngleDeg: 1,
    light: 'even',
    blurSigma: 0,
    jpegQuality: 85,
  })
  return {
    photo,
    secret,
    sittingId: 3,
    plans: [
      {
        set: 'A',
        seed: 1,
        order: [0, 1, 2],
        options: [
          [1, 2, 3, 4],
          [5, 6, 7, 8],
          [9, 10, 11, 12],
        ],
      },
    ],
    labels: 'latin',
    roster: new Map([[7, { roll_number: 7, user_id: 1, set_letter: 'A' }]]),
  }
}

describe('reading a sheet in a worker thread', () => {
  it('reads the sheet off the main thread, whose reader is never called', async () => {
    const result = await readSheetInWorker(await job())
    expect(result).toMatchObject({ ok: true, roll: 7, set: 'A' })
    if (!result.ok) throw new Error('unread')
    expect(result.answers!.map((row) => row.answer)).toEqual(['B', 'B', 'B'])
    expect(readSheet).not.toHaveBeenCalled()
  }, 60_000)

  it("waits in the worker for the process's decode slots the main thread holds", async () => {
    const sent = await job()
    await readSheetInWorker(sent)
    const events: string[] = []
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const slots = [withDecodeSlot(() => held), withDecodeSlot(() => held)]
    const read = readSheetInWorker(sent).then((result) => events.push(`read ${String(result.ok)}`))
    // Long enough for the warm worker to read the photo, were its decode not held back.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    events.push('released')
    release()
    await Promise.all([...slots, read])
    expect(events).toEqual(['released', 'read true'])
  }, 60_000)
})

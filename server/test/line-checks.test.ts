import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { lineChecks } from '../vitest.lines.config'

// A renamed or deleted file would silently drop out of the other Node lines' run: vitest matches nothing and
// says nothing.
describe('the checks CI runs on the other Node lines', () => {
  it.each(lineChecks)('%s exists', (file) => {
    expect(existsSync(join(import.meta.dirname, '..', file))).toBe(true)
  })
})

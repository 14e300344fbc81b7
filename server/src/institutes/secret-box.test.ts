import { describe, expect, it } from 'vitest'
import { createSecretBox } from './secret-box'

const SECRET = 'a-server-secret-of-at-least-32-characters-0123456789'

describe('secret box', () => {
  const box = createSecretBox(SECRET, 'institute payment keys')

  it('opens what it sealed, and seals the same secret differently each time', () => {
    const sealed = box.seal('live_secret_key_abc', 'institute:2:khalti')
    expect(sealed).toMatch(/^v1\./)
    expect(sealed).not.toContain('live_secret_key_abc')
    expect(box.open(sealed, 'institute:2:khalti')).toBe('live_secret_key_abc')
    expect(box.seal('live_secret_key_abc', 'institute:2:khalti')).not.toBe(sealed)
  })

  it('opens nothing copied to another institute, sealed under another server secret or purpose, or changed', () => {
    const sealed = box.seal('live_secret_key_abc', 'institute:2:khalti')
    expect(box.open(sealed, 'institute:3:khalti')).toBeUndefined()
    expect(createSecretBox(`${SECRET}!`, 'institute payment keys').open(sealed, 'institute:2:khalti')).toBeUndefined()
    expect(createSecretBox(SECRET, 'another purpose').open(sealed, 'institute:2:khalti')).toBeUndefined()
    const bytes = Buffer.from(sealed.slice(3), 'base64')
    bytes[bytes.length - 1]! ^= 1
    expect(box.open(`v1.${bytes.toString('base64')}`, 'institute:2:khalti')).toBeUndefined()
    expect(box.open('v2.AAAA', 'institute:2:khalti')).toBeUndefined()
    expect(box.open('v1.AAAA', 'institute:2:khalti')).toBeUndefined()
  })
})

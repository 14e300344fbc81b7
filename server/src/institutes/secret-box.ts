import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

// Institutes' merchant secrets at rest (docs/decisions/099): AES-256-GCM under a key derived by HKDF from the
// server's secret, so a copy of the database alone does not hand over an institute's Khalti or eSewa account.
const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16

export function createSecretBox(serverSecret: string, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'quiz-platform secret box', purpose, 32))
  return {
    /** `context` (the institute and provider) is authenticated: a sealed value copied to another row does not open. */
    seal(plain: string, context: string): string {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(Buffer.from(context))
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`
    },
    /** Undefined for a value sealed under another server secret, another context, or tampered with. */
    open(sealed: string, context: string): string | undefined {
      if (!sealed.startsWith(`${VERSION}.`)) return undefined
      const bytes = Buffer.from(sealed.slice(VERSION.length + 1), 'base64')
      if (bytes.length < IV_BYTES + TAG_BYTES) return undefined
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
        decipher.setAAD(Buffer.from(context))
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
      } catch {
        return undefined
      }
    },
  }
}

export type SecretBox = ReturnType<typeof createSecretBox>

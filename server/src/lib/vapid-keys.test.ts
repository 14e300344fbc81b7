import { createECDH } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { generateVapidKeys, localVapidKeys, vapidKeysProblem } from './vapid-keys'

describe('VAPID keys', () => {
  const dirs: string[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))

  it('makes pairs whose private key is always 32 bytes, even when the scalar starts with a zero byte', () => {
    // One scalar in 256 starts with a zero byte, which the ECDH API leaves out; 4,000 pairs meet one all but surely.
    for (let i = 0; i < 4_000; i++) {
      const pair = generateVapidKeys()
      expect(vapidKeysProblem(pair)).toBeNull()
    }
  })

  it('takes a kept pair whose private key was written without its leading zero byte', () => {
    let ecdh = createECDH('prime256v1')
    do {
      ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
    } while (ecdh.getPrivateKey().length === 32)
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vapid-'))
    dirs.push(dataDir)
    const short = { publicKey: ecdh.getPublicKey('base64url'), privateKey: ecdh.getPrivateKey('base64url') }
    writeFileSync(path.join(dataDir, 'vapid-keys.json'), JSON.stringify(short))

    const keys = localVapidKeys(dataDir)
    expect(keys.publicKey).toBe(short.publicKey)
    expect(Buffer.from(keys.privateKey, 'base64url')).toHaveLength(32)
    expect(vapidKeysProblem(keys)).toBeNull()
  })
})

import { createECDH } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { closeExisting, ensurePrivateDir } from './private-files'

export interface VapidKeys {
  publicKey: string
  privateKey: string
}

// The ECDH API leaves out leading zero bytes (one key in 256).
const privateKeyOf = (scalar: Buffer) => {
  const bytes = Buffer.alloc(32)
  scalar.copy(bytes, 32 - scalar.length)
  return bytes.toString('base64url')
}

export function generateVapidKeys(): VapidKeys {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return { publicKey: ecdh.getPublicKey('base64url'), privateKey: privateKeyOf(ecdh.getPrivateKey()) }
}

export function vapidKeysProblem({ publicKey, privateKey }: VapidKeys): string | null {
  const publicBytes = Buffer.from(publicKey, 'base64url')
  if (!/^[A-Za-z0-9_-]+$/.test(publicKey) || publicBytes.length !== 65 || publicBytes[0] !== 4)
    return 'VAPID_PUBLIC_KEY must be the base64url of a 65-byte uncompressed P-256 public key (`npx web-push generate-vapid-keys`).'
  const privateBytes = Buffer.from(privateKey, 'base64url')
  if (!/^[A-Za-z0-9_-]+$/.test(privateKey) || privateBytes.length !== 32)
    return 'VAPID_PRIVATE_KEY must be the base64url of a 32-byte P-256 private key (`npx web-push generate-vapid-keys`).'
  const ecdh = createECDH('prime256v1')
  try {
    ecdh.setPrivateKey(privateBytes)
  } catch {
    return 'VAPID_PRIVATE_KEY is not a valid P-256 private key.'
  }
  if (!ecdh.getPublicKey().equals(publicBytes))
    return 'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY: browsers would subscribe with a key the server cannot sign for.'
  return null
}

// Kept in DATA_DIR so subscriptions survive restarts; an exclusive create, so processes agree on the first pair.
export function localVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, 'vapid-keys.json')
  ensurePrivateDir(dataDir)
  try {
    writeFileSync(file, JSON.stringify(generateVapidKeys()), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  closeExisting([file])
  const kept = JSON.parse(readFileSync(file, 'utf8')) as VapidKeys
  // A pair written before the scalar was padded may hold 31 bytes or fewer: the same key, made whole.
  const scalar = Buffer.from(String(kept.privateKey), 'base64url')
  const keys = scalar.length > 0 && scalar.length < 32 ? { ...kept, privateKey: privateKeyOf(scalar) } : kept
  const problem = vapidKeysProblem(keys)
  if (problem) throw new Error(`${file}: ${problem} Delete the file to make a new pair.`)
  return keys
}

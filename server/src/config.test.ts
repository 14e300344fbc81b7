import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../test/test-app'
import { ConfigError, loadConfig } from './config'
import { generateVapidKeys, vapidKeysProblem } from './lib/vapid-keys'

const SECRET = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'
const production = {
  NODE_ENV: 'production',
  JWT_SECRET: SECRET,
  SMS_PROVIDER: 'sparrow',
  SMS_GATEWAY_TOKEN: 'token',
  DATA_DIR: '/tmp/quiz-test-data',
}
const load = (env: Record<string, string>) => loadConfig(env, { persistSecret: false })
const refusal = (env: Record<string, string>) => {
  try {
    load(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
  throw new Error('the settings were accepted')
}

describe('TRUST_PROXY', () => {
  it('takes a hop count, or proxy addresses and CIDRs', () => {
    expect(load({}).trustProxy).toBe(false)
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false)
    expect(load({ TRUST_PROXY: '1' }).trustProxy).toBe(1)
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(load({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ])
  })

  it('refuses true, which trusted every hop, naming the replacement', () => {
    expect(refusal({ TRUST_PROXY: 'true' })).toMatch(/TRUST_PROXY=true trusted every hop.*TRUST_PROXY=1/)
  })

  it('refuses what is neither a count nor an address', () => {
    expect(refusal({ TRUST_PROXY: 'nginx' })).toContain('"nginx" is neither a hop count nor an IP address or CIDR')
    expect(refusal({ TRUST_PROXY: '10.0.0.0/33' })).toContain('"10.0.0.0/33"')
  })
})

describe('production refusals', () => {
  it('accepts a random secret and https addresses', () => {
    const config = load({ ...production, PUBLIC_URL: 'https://quiz.example.np', SMS_GATEWAY_URL: 'https://sms.np/' })
    expect(config).toMatchObject({ env: 'production', jwtSecret: SECRET, apiDocs: false })
  })

  it.each([
    ['a repeated letter', 'x'.repeat(40)],
    ['a repeated word', 'password'.repeat(5)],
    ['a few characters in turn', 'abcd'.repeat(10)],
    ['a typed alphabet', 'abcdefghijklmnopqrstuvwxyz0123456789'],
    ['a typed alphabet in both cases', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'],
    ['a keyboard walk', 'qwertyuiopasdfghjklzxcvbnm1234567890'],
    ['a passphrase of common words', 'correct-horse-battery-staple-quiz-np-2026'],
    ['16 random bytes', '6f1ed002ab5595859014ebf0951522d9'],
  ])('refuses %s as JWT_SECRET', (_label, secret) => {
    expect(refusal({ ...production, JWT_SECRET: secret })).toContain('JWT_SECRET looks guessable')
  })

  it.each([
    ['hex', randomBytes(32).toString('hex')],
    ['base64', randomBytes(32).toString('base64')],
    ['base64url', randomBytes(32).toString('base64url')],
  ])('accepts 32 random bytes in %s as JWT_SECRET', (_label, secret) => {
    expect(load({ ...production, JWT_SECRET: secret }).jwtSecret).toBe(secret)
  })

  it("keeps development's generated secret, which production would accept too", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'quiz-secret-'))
    try {
      const secret = loadConfig({ DATA_DIR: dataDir }).jwtSecret
      expect(load({ ...production, JWT_SECRET: secret }).jwtSecret).toBe(secret)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('refuses http:// for PUBLIC_URL and the SMS gateway', () => {
    const message = refusal({ ...production, PUBLIC_URL: 'http://quiz.example.np', SMS_GATEWAY_URL: 'http://sms.np/' })
    expect(message).toContain('PUBLIC_URL must be an https:// address')
    expect(message).toContain('SMS_GATEWAY_URL must be an https:// address')
  })

  it('accepts the same outside production', () => {
    expect(load({ JWT_SECRET: 'x'.repeat(40), PUBLIC_URL: 'http://localhost:3000' }).jwtSecret).toBe('x'.repeat(40))
  })
})

describe('the API document', () => {
  it('is served outside production, and in production only with API_DOCS', () => {
    expect(load({}).apiDocs).toBe(true)
    expect(load(production).apiDocs).toBe(false)
    expect(load({ ...production, API_DOCS: 'true' }).apiDocs).toBe(true)
  })

  describe('with API_DOCS=false', () => {
    const t = useTestApp('sqlite', { API_DOCS: 'false' })

    it('answers 404 at /api/docs', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404)
      expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404)
    })
  })
})

describe('web push', () => {
  const pair = generateVapidKeys()
  const keys = { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey }
  const subject = { VAPID_SUBJECT: 'mailto:ops@quiz.example.np' }

  it('is on outside production, with a key pair made for the process when none is given', () => {
    const { vapid } = load({}).push
    expect(vapid).not.toBeNull()
    expect(vapidKeysProblem(vapid!)).toBeNull()
    expect(vapid!.subject).toBe('mailto:webmaster@localhost')
    expect(load({ PUSH_ENABLED: 'false' }).push.vapid).toBeNull()
    expect(load({ ...keys, ...subject }).push.vapid).toEqual({ ...pair, subject: subject.VAPID_SUBJECT })
  })

  it('is off in production unless the keys are given, and then needs a subject', () => {
    expect(load(production).push.vapid).toBeNull()
    expect(load({ ...production, ...keys, ...subject }).push).toMatchObject({
      vapid: { ...pair, subject: subject.VAPID_SUBJECT },
      allowInsecure: false,
      refusePrivate: true,
    })
    expect(load({ ...production, ...keys, ...subject, PUSH_ENABLED: 'false' }).push.vapid).toBeNull()
    expect(refusal({ ...production, ...keys })).toContain('VAPID_SUBJECT is required in production')
  })

  it('refuses PUSH_ENABLED=true in production without keys', () => {
    expect(refusal({ ...production, ...subject, PUSH_ENABLED: 'true' })).toContain(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are required in production when push is on',
    )
  })

  it('refuses one key without the other, keys of two pairs, a malformed key and a bad subject', () => {
    expect(refusal({ VAPID_PUBLIC_KEY: pair.publicKey })).toContain('set together or not at all')
    const other = generateVapidKeys()
    expect(refusal({ ...keys, VAPID_PRIVATE_KEY: other.privateKey })).toContain(
      'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY',
    )
    expect(refusal({ ...keys, VAPID_PUBLIC_KEY: pair.publicKey.slice(1) })).toContain(
      'VAPID_PUBLIC_KEY must be the base64url of a 65-byte',
    )
    expect(refusal({ ...keys, VAPID_PRIVATE_KEY: 'c2hvcnQ' })).toContain('VAPID_PRIVATE_KEY must be the base64url')
    for (const bad of ['ops@quiz.example.np', 'http://quiz.example.np', 'mailto:'])
      expect(refusal({ VAPID_SUBJECT: bad })).toContain('VAPID_SUBJECT must be a mailto: or https:// address')
  })

  it('refuses PUSH_ALLOW_INSECURE in production, and takes it elsewhere', () => {
    expect(refusal({ ...production, PUSH_ALLOW_INSECURE: 'true' })).toContain('PUSH_ALLOW_INSECURE=true')
    expect(load({ PUSH_ALLOW_INSECURE: 'true' }).push).toMatchObject({ allowInsecure: true, refusePrivate: false })
  })

  it('keeps the development pair in the data directory, owner-only, across restarts', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'quiz-vapid-'))
    try {
      const first = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET }).push.vapid
      const again = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: SECRET }).push.vapid
      expect(again).toEqual(first)
      const file = path.join(dataDir, 'vapid-keys.json')
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        publicKey: first!.publicKey,
        privateKey: first!.privateKey,
      })
      expect(statSync(file).mode & 0o777).toBe(0o600)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('drains the delivery queue every second, but not under NODE_ENV=test unless told', () => {
    expect(load({ NODE_ENV: 'development' }).deliveryIntervalMs).toBe(1000)
    expect(load({ NODE_ENV: 'test' }).deliveryIntervalMs).toBe(0)
    expect(load({ NODE_ENV: 'test', DELIVERY_INTERVAL_MS: '50' }).deliveryIntervalMs).toBe(50)
  })

  it('looks for due live-mock announcements every 5 seconds, but not under NODE_ENV=test unless told', () => {
    expect(load({ NODE_ENV: 'development' }).liveAnnouncementIntervalMs).toBe(5000)
    expect(load({ NODE_ENV: 'test' }).liveAnnouncementIntervalMs).toBe(0)
    expect(load({ NODE_ENV: 'test', LIVE_ANNOUNCEMENT_INTERVAL_MS: '50' }).liveAnnouncementIntervalMs).toBe(50)
  })

  it('sweeps unused pictures daily, but not under NODE_ENV=test unless told', () => {
    expect(load({ NODE_ENV: 'development' }).pictureSweepIntervalMs).toBe(86_400_000)
    expect(load({ NODE_ENV: 'test' }).pictureSweepIntervalMs).toBe(0)
    expect(load({ NODE_ENV: 'test', PICTURE_SWEEP_INTERVAL_MS: '50' }).pictureSweepIntervalMs).toBe(50)
    // Signed redirects need a store that signs: with the local store the app serves the files whatever is set.
    expect(load({ NODE_ENV: 'test', S3_SIGNED_REDIRECTS: 'true' }).signedRedirects).toBe(false)
    expect(load({ NODE_ENV: 'development' }).fileSweepIntervalMs).toBe(86_400_000)
    expect(load({ NODE_ENV: 'test' }).fileSweepIntervalMs).toBe(0)
    expect(load({ NODE_ENV: 'test', FILE_SWEEP_INTERVAL_MS: '50' }).fileSweepIntervalMs).toBe(50)
  })

  it('writes owed practice cards every 200 ms, but not under NODE_ENV=test unless told', () => {
    expect(load({ NODE_ENV: 'development' }).owedCardsIntervalMs).toBe(200)
    expect(load({ NODE_ENV: 'test' }).owedCardsIntervalMs).toBe(0)
    expect(load({ NODE_ENV: 'test', OWED_CARDS_INTERVAL_MS: '50' }).owedCardsIntervalMs).toBe(50)
  })
})

// docs/decisions/098: migrations as the tables' owner, the server as a role that owns none.
describe('DATABASE_OWNER_URL', () => {
  const postgres = { JWT_SECRET: SECRET, DATABASE_URL: 'postgres://quiz_app@db/quiz' }

  it('is the owner beside the app role, and absent leaves DATABASE_URL to run both', () => {
    const owned = load({ ...postgres, DATABASE_OWNER_URL: 'postgres://quiz_owner@db/quiz' }).database
    expect(owned).toMatchObject({
      kind: 'postgres',
      url: postgres.DATABASE_URL,
      ownerUrl: 'postgres://quiz_owner@db/quiz',
    })
    expect(load(postgres).database).toMatchObject({ kind: 'postgres', ownerUrl: undefined })
  })

  it('refuses one that is not postgres://, and one without a PostgreSQL DATABASE_URL', () => {
    expect(refusal({ ...postgres, DATABASE_OWNER_URL: 'mysql://db/quiz' })).toContain('DATABASE_OWNER_URL must be')
    expect(refusal({ JWT_SECRET: SECRET, DATABASE_OWNER_URL: 'postgres://quiz_owner@db/quiz' })).toContain(
      'DATABASE_OWNER_URL must be',
    )
  })
})

describe('FILE_STORE', () => {
  const s3 = {
    FILE_STORE: 's3',
    S3_ENDPOINT: 'https://files.example.np',
    S3_BUCKET: 'quiz-files',
    S3_REGION: 'auto',
    S3_ACCESS_KEY_ID: 'key',
    S3_SECRET_ACCESS_KEY: 'secret',
  }

  it('is the data directory by default', () => {
    expect(load({}).files).toEqual({ kind: 'local' })
  })

  it('is a bucket with FILE_STORE=s3 and its settings, path-style only when told', () => {
    expect(load(s3).files).toEqual({
      kind: 's3',
      s3: {
        endpoint: 'https://files.example.np',
        bucket: 'quiz-files',
        region: 'auto',
        accessKeyId: 'key',
        secretAccessKey: 'secret',
        forcePathStyle: false,
      },
    })
    expect(load({ ...s3, S3_FORCE_PATH_STYLE: 'true' }).files).toMatchObject({ s3: { forcePathStyle: true } })
  })

  it('refuses FILE_STORE=s3 without its bucket, region or keys, naming each', () => {
    expect(refusal({ FILE_STORE: 's3' })).toMatch(
      /FILE_STORE=s3 needs S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/,
    )
    expect(refusal({ ...s3, S3_SECRET_ACCESS_KEY: '' })).toMatch(/FILE_STORE=s3 needs S3_SECRET_ACCESS_KEY \(/)
  })

  it('refuses an unknown store, and an http:// endpoint in production', () => {
    expect(refusal({ FILE_STORE: 'disk' })).toMatch(/FILE_STORE/)
    expect(refusal({ ...production, ...s3, S3_ENDPOINT: 'http://files.example.np' })).toMatch(
      /S3_ENDPOINT must be an https:\/\/ address/,
    )
  })
})

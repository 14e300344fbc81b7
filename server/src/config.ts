import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { isIP } from 'node:net'
import path from 'node:path'
import { z } from 'zod'
import { closeExisting, ensurePrivateDir } from './lib/private-files'
import { secretStrengthBits } from './lib/secret-strength'
import { generateVapidKeys, localVapidKeys, vapidKeysProblem, type VapidKeys } from './lib/vapid-keys'

const int = (fallback: number) => z.coerce.number().int().positive().default(fallback)
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1')

/** Every setting, its default, and how it is parsed. The README's settings table mirrors this and says what each is. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.string().default('false'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_OWNER_URL: z.string().optional(),
  DATABASE_POOL_SIZE: int(10),
  DATABASE_PREPARED_STATEMENTS: bool(true),
  WEB_DIST: z.string().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL: int(15 * 60),
  REFRESH_TOKEN_TTL: int(7 * 24 * 60 * 60),
  SESSION_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  SUBMIT_GRACE_SECONDS: z.coerce.number().int().min(0).default(120),
  SMS_PROVIDER: z.enum(['console', 'http', 'sparrow', 'aakash']).default('console'),
  SMS_OUTBOX: z.string().optional(),
  SMS_GATEWAY_URL: z.string().url().optional(),
  SMS_GATEWAY_TOKEN: z.string().optional(),
  SMS_SENDER_ID: z.string().default('QuizNP'),
  SMS_TIMEOUT_MS: int(10_000),
  RATE_LIMIT_LOGIN_PER_USERNAME: int(10),
  RATE_LIMIT_LOGIN_PER_IP: int(300),
  RATE_LIMIT_LOGIN_WINDOW_SECONDS: int(15 * 60),
  RATE_LIMIT_OTP_PER_PHONE_HOUR: int(5),
  RATE_LIMIT_OTP_PER_IP_HOUR: int(100),
  RATE_LIMIT_ACCOUNT_PER_IP_HOUR: int(1000),
  RATE_LIMIT_REFRESH_PER_IP_HOUR: int(10_000),
  RATE_LIMIT_PAYMENT_START_PER_USER_HOUR: int(20),
  RATE_LIMIT_PAYMENT_RETURN_PER_IP_HOUR: int(300),
  RATE_LIMIT_PUSH_SUBSCRIBE_PER_USER_HOUR: int(30),
  RATE_LIMIT_PROFILE_PICTURE_PER_USER_HOUR: int(10),
  UPLOAD_QUOTA_MB_PER_LEARNER: int(500),
  PAYMENT_PROVIDERS: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
  PAYMENT_SANDBOX: bool(false),
  API_DOCS: z.enum(['true', 'false', '1', '0']).optional(),
  PAYMENT_TIMEOUT_MS: int(10_000),
  KHALTI_BASE_URL: z.string().url().default('https://khalti.com/api/v2/'),
  KHALTI_SECRET_KEY: z.string().optional(),
  ESEWA_FORM_URL: z.string().url().default('https://epay.esewa.com.np/api/epay/main/v2/form'),
  ESEWA_STATUS_URL: z.string().url().default('https://epay.esewa.com.np/api/epay/transaction/status/'),
  ESEWA_PRODUCT_CODE: z.string().optional(),
  ESEWA_SECRET_KEY: z.string().optional(),
  WORKERS: int(1),
  BASE_DOMAIN: z.string().optional(),
  PLATFORM_HOST: z.string().optional(),
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  // 0 (off) under NODE_ENV=test: a busy test machine's lag says nothing about overload.
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).optional(),
  OVERLOAD_RETRY_AFTER_SECONDS: int(5),
  IMPORT_TTL_HOURS: int(24),
  IMPORT_WORKERS: int(1),
  IMPORT_TIMEOUT_SECONDS: int(60),
  IMPORT_QUEUE: int(4),
  IMPORT_WORKER_MEMORY_MB: int(384),
  PUSH_ENABLED: z.enum(['true', 'false', '1', '0']).optional(),
  VAPID_PUBLIC_KEY: z.string().trim().optional(),
  VAPID_PRIVATE_KEY: z.string().trim().optional(),
  VAPID_SUBJECT: z.string().trim().optional(),
  PUSH_ALLOW_INSECURE: bool(false),
  PUSH_TIMEOUT_MS: int(5_000),
  DELIVERY_INTERVAL_MS: z.coerce.number().int().min(0).optional(),
  DELIVERY_MAX_PER_TICK: z.coerce.number().int().min(1).max(100_000).default(200),
  LIVE_ANNOUNCEMENT_CHUNK: z.coerce.number().int().min(1).max(100_000).default(2_000),
  LIVE_ANNOUNCEMENT_INTERVAL_MS: z.coerce.number().int().min(0).optional(),
  DAILY_SET_INTERVAL_MS: z.coerce.number().int().min(0).optional(),
  PICTURE_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  FILE_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  OWED_CARDS_INTERVAL_MS: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  FILE_STORE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().trim().optional(),
  S3_REGION: z.string().trim().optional(),
  S3_ACCESS_KEY_ID: z.string().trim().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool(false),
  S3_SIGNED_REDIRECTS: bool(false),
})

const PAYMENT_PROVIDER_NAMES = ['khalti', 'esewa', 'fake'] as const
export type PaymentProviderName = (typeof PAYMENT_PROVIDER_NAMES)[number]

export type Config = Readonly<{
  env: 'development' | 'production' | 'test'
  port: number
  host: string
  logLevel: string
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses and CIDRs (never "every hop"). */
  trustProxy: false | number | string[]
  dataDir: string
  database:
    | { kind: 'sqlite'; file: string; sharedWithOtherProcesses?: boolean }
    | {
        kind: 'postgres'
        url: string
        /** The tables' owner, who migrates; the server's own role (url) then owns nothing (docs/decisions/098). */
        ownerUrl?: string
        poolSize: number
        preparedStatements?: boolean
      }
  webDist: string
  jwtSecret: string
  accessTokenTtl: number
  refreshTokenTtl: number
  /** A login's refresh tokens rotate until this long after its sign-in, never past it (docs/decisions/091). */
  sessionMaxSeconds: number
  submitGraceSeconds: number
  importTtlHours: number
  /** Bytes of kept written-answer pages one learner may hold (docs/decisions/088). */
  uploadQuotaBytesPerLearner: number
  imports: { workers: number; timeoutMs: number; queue: number; memoryMb: number }
  sms: {
    provider: 'console' | 'http' | 'sparrow' | 'aakash'
    outbox: string
    gatewayUrl?: string
    gatewayToken?: string
    senderId: string
    timeoutMs: number
  }
  apiDocs: boolean
  payments: {
    providers: readonly PaymentProviderName[]
    sandbox: boolean
    publicUrl: string
    timeoutMs: number
    khalti: { baseUrl: string; secretKey: string }
    esewa: { formUrl: string; statusUrl: string; productCode: string; secretKey: string }
  }
  workers: number
  /** API.md "Institutes": `{slug}.{baseDomain}` is an institute's own host; the platform's screens are on platformHost. */
  institutes: { baseDomain?: string; platformHost?: string }
  metricsToken?: string
  push: {
    vapid: (VapidKeys & { subject: string }) | null
    allowInsecure: boolean
    refusePrivate: boolean
    timeoutMs: number
  }
  deliveryIntervalMs: number
  /** Pushes and SMS one process sends per delivery tick at the most: the queue's rate bound (decision 070). */
  deliveryMaxPerTick: number
  liveAnnouncementIntervalMs: number
  /** How often each process publishes due daily sets and sends due daily reminders (0: never). */
  dailyIntervalMs: number
  /** Learners one announcement pass notifies, in one transaction; a mock of 100,000 takes 50 of them. */
  liveAnnouncementChunk: number
  pictureSweepIntervalMs: number
  /** How often each process removes the stored files no row names (db/file-sweep.ts); 0: never. */
  fileSweepIntervalMs: number
  /**
   * With an S3 store: pictures and written pages answer, after the same checks, with a redirect to a signed address
   * of at most 5 minutes, and the bytes travel from the store, not through the app (docs/decisions/112).
   */
  signedRedirects: boolean
  /** How often each process writes the practice cards finishes owe (decision 080); 0: only their readers do. */
  owedCardsIntervalMs: number
  overload: { maxEventLoopDelayMs: number; retryAfterSeconds: number }
  /** Where files live (API.md "Operations", Files; docs/decisions/105); `dir` replaces DATA_DIR/files (tests). */
  files:
    | { kind: 'local'; dir?: string }
    | {
        kind: 's3'
        s3: {
          endpoint?: string
          bucket: string
          region: string
          accessKeyId: string
          secretAccessKey: string
          forcePathStyle: boolean
        }
      }
  rateLimits: {
    loginPerUsername: number
    loginPerIp: number
    loginWindowSeconds: number
    otpPerPhoneHour: number
    otpPerIpHour: number
    accountPerIpHour: number
    refreshPerIpHour: number
    paymentStartPerUserHour: number
    paymentReturnPerIpHour: number
    pushSubscribePerUserHour: number
    profilePicturePerUserHour: number
  }
}>

export class ConfigError extends Error {}

// Nothing else in the server reads process.env but db/database.ts's NO_READER (README's settings).
export function loadConfig(env: NodeJS.ProcessEnv = process.env, { persistSecret = true } = {}): Config {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')))
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new ConfigError(`Invalid settings:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const isPostgres = e.DATABASE_URL !== undefined && /^postgres(ql)?:\/\//.test(e.DATABASE_URL)
  if (e.DATABASE_URL !== undefined && !isPostgres) {
    throw new ConfigError(
      'Invalid settings:\n  DATABASE_URL: only postgres:// URLs are supported (leave it unset for SQLite)',
    )
  }
  const problems: string[] = []
  if (e.DATABASE_OWNER_URL !== undefined && !(isPostgres && /^postgres(ql)?:\/\//.test(e.DATABASE_OWNER_URL)))
    problems.push('DATABASE_OWNER_URL must be a postgres:// URL, beside a postgres:// DATABASE_URL.')
  const production = e.NODE_ENV === 'production'
  const trustProxy = parseTrustProxy(e.TRUST_PROXY, problems)
  if (production && !e.JWT_SECRET) problems.push('JWT_SECRET is required in production.')
  if (production && e.JWT_SECRET && secretStrengthBits(e.JWT_SECRET) < MIN_SECRET_BITS)
    problems.push(
      'JWT_SECRET looks guessable (typed, patterned or short: it needs 32 random bytes); use `openssl rand -hex 32`.',
    )
  // Behind TLS the browser never sends tokens or codes in the clear; an http:// address would.
  if (production && e.PUBLIC_URL?.startsWith('http://'))
    problems.push('PUBLIC_URL must be an https:// address in production.')
  if (production && e.SMS_GATEWAY_URL?.startsWith('http://'))
    problems.push('SMS_GATEWAY_URL must be an https:// address in production: the gateway token travels with it.')
  if (isPostgres && !e.JWT_SECRET)
    problems.push('JWT_SECRET is required with PostgreSQL: every app process must sign with the same secret.')
  if (e.NODE_ENV === 'production' && e.SMS_PROVIDER === 'console')
    problems.push('SMS_PROVIDER=console only writes codes to a file; choose a real gateway in production.')
  if (e.SMS_PROVIDER !== 'console' && !e.SMS_GATEWAY_URL && e.SMS_PROVIDER === 'http')
    problems.push('SMS_GATEWAY_URL is required when SMS_PROVIDER=http.')
  if ((e.SMS_PROVIDER === 'sparrow' || e.SMS_PROVIDER === 'aakash') && !e.SMS_GATEWAY_TOKEN)
    problems.push(`SMS_GATEWAY_TOKEN is required when SMS_PROVIDER=${e.SMS_PROVIDER}.`)
  const providers = paymentProviders(e, problems)
  const push = pushSettings(e, problems)
  const files = fileStoreSettings(e, problems)
  if (problems.length > 0) throw new ConfigError(`Refusing to start:\n  ${problems.join('\n  ')}`)

  const dataDir = path.resolve(e.DATA_DIR)
  return Object.freeze({
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    trustProxy,
    dataDir,
    database: isPostgres
      ? {
          kind: 'postgres' as const,
          url: e.DATABASE_URL!,
          ownerUrl: e.DATABASE_OWNER_URL,
          poolSize: e.DATABASE_POOL_SIZE,
          preparedStatements: e.DATABASE_PREPARED_STATEMENTS,
        }
      : { kind: 'sqlite' as const, file: path.join(dataDir, 'quiz.db'), sharedWithOtherProcesses: e.WORKERS > 1 },
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    jwtSecret: e.JWT_SECRET ?? (persistSecret ? localSecret(dataDir) : randomBytes(32).toString('hex')),
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    sessionMaxSeconds: e.SESSION_MAX_DAYS * 24 * 60 * 60,
    submitGraceSeconds: e.SUBMIT_GRACE_SECONDS,
    importTtlHours: e.IMPORT_TTL_HOURS,
    uploadQuotaBytesPerLearner: e.UPLOAD_QUOTA_MB_PER_LEARNER * 1024 * 1024,
    imports: {
      workers: e.IMPORT_WORKERS,
      timeoutMs: e.IMPORT_TIMEOUT_SECONDS * 1000,
      queue: e.IMPORT_QUEUE,
      memoryMb: e.IMPORT_WORKER_MEMORY_MB,
    },
    sms: {
      provider: e.SMS_PROVIDER,
      outbox: path.resolve(e.SMS_OUTBOX ?? path.join(dataDir, 'sms-outbox.jsonl')),
      gatewayUrl: e.SMS_GATEWAY_URL,
      gatewayToken: e.SMS_GATEWAY_TOKEN,
      senderId: e.SMS_SENDER_ID,
      timeoutMs: e.SMS_TIMEOUT_MS,
    },
    apiDocs: e.API_DOCS === undefined ? !production : e.API_DOCS === 'true' || e.API_DOCS === '1',
    payments: {
      providers: providers as PaymentProviderName[],
      sandbox: e.PAYMENT_SANDBOX,
      publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      timeoutMs: e.PAYMENT_TIMEOUT_MS,
      khalti: { baseUrl: e.KHALTI_BASE_URL.replace(/\/*$/, '/'), secretKey: e.KHALTI_SECRET_KEY ?? '' },
      esewa: {
        formUrl: e.ESEWA_FORM_URL,
        statusUrl: e.ESEWA_STATUS_URL,
        productCode: e.ESEWA_PRODUCT_CODE ?? '',
        secretKey: e.ESEWA_SECRET_KEY ?? '',
      },
    },
    push: {
      vapid: push.on
        ? {
            ...(push.keys ?? (persistSecret ? localVapidKeys(dataDir) : generateVapidKeys())),
            subject: push.subject,
          }
        : null,
      allowInsecure: e.PUSH_ALLOW_INSECURE,
      refusePrivate: production,
      timeoutMs: e.PUSH_TIMEOUT_MS,
    },
    deliveryIntervalMs: e.DELIVERY_INTERVAL_MS ?? (e.NODE_ENV === 'test' ? 0 : 1000),
    deliveryMaxPerTick: e.DELIVERY_MAX_PER_TICK,
    liveAnnouncementIntervalMs: e.LIVE_ANNOUNCEMENT_INTERVAL_MS ?? (e.NODE_ENV === 'test' ? 0 : 5000),
    dailyIntervalMs: e.DAILY_SET_INTERVAL_MS ?? (e.NODE_ENV === 'test' ? 0 : 30_000),
    liveAnnouncementChunk: e.LIVE_ANNOUNCEMENT_CHUNK,
    pictureSweepIntervalMs: e.PICTURE_SWEEP_INTERVAL_MS ?? (e.NODE_ENV === 'test' ? 0 : 24 * 3_600_000),
    signedRedirects: e.FILE_STORE === 's3' && e.S3_SIGNED_REDIRECTS,
    fileSweepIntervalMs: e.FILE_SWEEP_INTERVAL_MS ?? (e.NODE_ENV === 'test' ? 0 : 24 * 3_600_000),
    owedCardsIntervalMs: e.OWED_CARDS_INTERVAL_MS ?? (e.NODE_ENV === 'test' ? 0 : 200),
    workers: e.WORKERS,
    institutes: {
      baseDomain: e.BASE_DOMAIN?.trim().toLowerCase() || undefined,
      platformHost: (e.PLATFORM_HOST ?? e.BASE_DOMAIN)?.trim().toLowerCase() || undefined,
    },
    metricsToken: e.METRICS_TOKEN,
    overload: {
      maxEventLoopDelayMs: e.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS ?? (e.NODE_ENV === 'test' ? 0 : 1000),
      retryAfterSeconds: e.OVERLOAD_RETRY_AFTER_SECONDS,
    },
    files,
    rateLimits: rateLimitSettings(e),
  })
}

// FILE_STORE=s3 without its bucket and keys would fail on the first upload of the exam day: refused at start-up.
function fileStoreSettings(e: z.infer<typeof EnvSchema>, problems: string[]): Config['files'] {
  if (e.FILE_STORE === 'local') return { kind: 'local' }
  const required = {
    S3_BUCKET: e.S3_BUCKET,
    S3_REGION: e.S3_REGION,
    S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY,
  }
  const absent = Object.entries(required)
    .filter(([, value]) => !value)
    .map(([name]) => name)
  if (absent.length > 0)
    problems.push(
      `FILE_STORE=s3 needs ${absent.join(', ')} (and S3_ENDPOINT for any store but Amazon S3, S3_FORCE_PATH_STYLE=true for MinIO and local servers).`,
    )
  if (e.NODE_ENV === 'production' && e.S3_ENDPOINT?.startsWith('http://'))
    problems.push(
      'S3_ENDPOINT must be an https:// address in production: the files and signed addresses travel with it.',
    )
  return {
    kind: 's3',
    s3: {
      endpoint: e.S3_ENDPOINT,
      bucket: e.S3_BUCKET ?? '',
      region: e.S3_REGION ?? '',
      accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    },
  }
}

// The payment providers asked for, and every way the choice could cost money or strand a payer.
function paymentProviders(e: z.infer<typeof EnvSchema>, problems: string[]) {
  const production = e.NODE_ENV === 'production'
  const providerList = e.PAYMENT_PROVIDERS ?? (e.NODE_ENV === 'production' ? '' : 'fake')
  const providers = [...new Set(providerList.split(',').map((name) => name.trim().toLowerCase()))].filter(
    (name) => name !== '',
  )
  for (const name of providers) {
    if (!(PAYMENT_PROVIDER_NAMES as readonly string[]).includes(name))
      problems.push(`PAYMENT_PROVIDERS: unknown provider "${name}" (choose from khalti, esewa, fake).`)
  }
  // The fake provider grants paid access to anyone who presses "Pay": never where money is real.
  if (production && providers.includes('fake'))
    problems.push('PAYMENT_PROVIDERS includes fake, which grants paid access without payment; not in production.')
  const realProviders = providers.filter((name) => name === 'khalti' || name === 'esewa')
  if (providers.includes('fake') && realProviders.length > 0)
    problems.push(
      `PAYMENT_PROVIDERS includes fake beside ${realProviders.join(' and ')}: fake grants paid access without payment, so it never runs beside a real provider.`,
    )
  if (production) problems.push(...paymentUrlProblems(e, providers))
  if (production && !e.PAYMENT_SANDBOX) problems.push(...sandboxProblems(e, providers))
  if (providers.includes('khalti') && !e.KHALTI_SECRET_KEY)
    problems.push('KHALTI_SECRET_KEY is required when PAYMENT_PROVIDERS includes khalti.')
  if (providers.includes('esewa') && !e.ESEWA_SECRET_KEY)
    problems.push('ESEWA_SECRET_KEY is required when PAYMENT_PROVIDERS includes esewa.')
  if (providers.includes('esewa') && !e.ESEWA_PRODUCT_CODE)
    problems.push('ESEWA_PRODUCT_CODE is required when PAYMENT_PROVIDERS includes esewa.')
  // The providers send learners back to PUBLIC_URL: a guessed localhost address would strand every payer.
  if (e.NODE_ENV === 'production' && !e.PUBLIC_URL && (providers.includes('khalti') || providers.includes('esewa')))
    problems.push('PUBLIC_URL is required in production with khalti or esewa: the providers send learners back there.')
  return providers
}

function rateLimitSettings(e: z.infer<typeof EnvSchema>) {
  return {
    loginPerUsername: e.RATE_LIMIT_LOGIN_PER_USERNAME,
    loginPerIp: e.RATE_LIMIT_LOGIN_PER_IP,
    loginWindowSeconds: e.RATE_LIMIT_LOGIN_WINDOW_SECONDS,
    otpPerPhoneHour: e.RATE_LIMIT_OTP_PER_PHONE_HOUR,
    otpPerIpHour: e.RATE_LIMIT_OTP_PER_IP_HOUR,
    accountPerIpHour: e.RATE_LIMIT_ACCOUNT_PER_IP_HOUR,
    refreshPerIpHour: e.RATE_LIMIT_REFRESH_PER_IP_HOUR,
    paymentStartPerUserHour: e.RATE_LIMIT_PAYMENT_START_PER_USER_HOUR,
    paymentReturnPerIpHour: e.RATE_LIMIT_PAYMENT_RETURN_PER_IP_HOUR,
    pushSubscribePerUserHour: e.RATE_LIMIT_PUSH_SUBSCRIBE_PER_USER_HOUR,
    profilePicturePerUserHour: e.RATE_LIMIT_PROFILE_PICTURE_PER_USER_HOUR,
  }
}

// Production keys from the environment, so every process signs with the pair browsers subscribed with.
function pushSettings(e: z.infer<typeof EnvSchema>, problems: string[]) {
  const production = e.NODE_ENV === 'production'
  const given = [e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY].filter((key) => key !== undefined).length
  const on =
    e.PUSH_ENABLED === undefined
      ? !production || e.VAPID_PUBLIC_KEY !== undefined
      : e.PUSH_ENABLED === 'true' || e.PUSH_ENABLED === '1'
  if (given === 1) problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all.')
  const keys = given === 2 ? { publicKey: e.VAPID_PUBLIC_KEY!, privateKey: e.VAPID_PRIVATE_KEY! } : undefined
  if (keys) {
    const problem = vapidKeysProblem(keys)
    if (problem) problems.push(problem)
  }
  if (production && on && given === 0)
    problems.push(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are required in production when push is on (`npx web-push generate-vapid-keys`), or set PUSH_ENABLED=false.',
    )
  if (production && on && !e.VAPID_SUBJECT)
    problems.push(
      'VAPID_SUBJECT is required in production when push is on: a mailto: or https: address of the operator.',
    )
  if (e.VAPID_SUBJECT !== undefined && !/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(e.VAPID_SUBJECT))
    problems.push('VAPID_SUBJECT must be a mailto: or https:// address (mailto:admin@example.np).')
  if (production && e.PUSH_ALLOW_INSECURE)
    problems.push('PUSH_ALLOW_INSECURE=true accepts http and local push endpoints; not in production.')
  return { on, keys, subject: e.VAPID_SUBJECT ?? 'mailto:webmaster@localhost' }
}

// The old `true` let any client name its own address in X-Forwarded-For: refused, not guessed (decision 023).
function parseTrustProxy(value: string, problems: string[]): Config['trustProxy'] {
  const text = value.trim().toLowerCase()
  if (text === 'false' || text === '0') return false
  if (text === 'true')
    problems.push(
      'TRUST_PROXY=true trusted every hop, so clients could forge their address; set the number of proxies in front (TRUST_PROXY=1 for one reverse proxy) or their addresses (TRUST_PROXY=127.0.0.1,10.0.0.0/8).',
    )
  if (/^\d+$/.test(text)) return Number(text)
  const entries = text.split(',').map((entry) => entry.trim())
  const named = new Set(['loopback', 'linklocal', 'uniquelocal'])
  const bad = entries.filter((entry) => {
    if (named.has(entry)) return false
    const [address, bits, ...rest] = entry.split('/')
    const family = isIP(address ?? '')
    if (family === 0 || rest.length > 0) return true
    return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
  })
  if (text !== 'true' && bad.length > 0)
    problems.push(
      `TRUST_PROXY: "${bad.join('", "')}" is neither a hop count nor an IP address or CIDR (e.g. 1, or 127.0.0.1,10.0.0.0/8).`,
    )
  return entries
}

// Random 32 bytes score about 210 (hex) and 145 (base64) bits; typed or 16-byte hex secrets score under 110.
const MIN_SECRET_BITS = 128

// Khalti's and eSewa's published test values: a payment from a public test wallet would grant real paid access.
const ESEWA_TEST_PRODUCT_CODE = 'EPAYTEST'
const ESEWA_TEST_SECRET_KEY = '8gBm/:&EnhH.1/q'
const KHALTI_LIVE_HOST = 'khalti.com'
const ESEWA_LIVE_HOSTS = new Set(['epay.esewa.com.np', 'esewa.com.np'])

// The providers' own test hosts, as their developer documents name them: PAYMENT_SANDBOX allows these and no other.
const KHALTI_SANDBOX_HOSTS = new Set(['dev.khalti.com', 'a.khalti.com'])
const ESEWA_SANDBOX_HOSTS = new Set(['rc-epay.esewa.com.np', 'rc.esewa.com.np', 'uat.esewa.com.np'])

// The secret key and the payment travel to these URLs: http:// or a foreign host would hand both to whoever answers.
function paymentUrlProblems(e: z.infer<typeof EnvSchema>, providers: readonly string[]): string[] {
  const urls = [
    ...(providers.includes('khalti')
      ? [
          [
            'KHALTI_BASE_URL',
            e.KHALTI_BASE_URL,
            'Khalti',
            new Set([KHALTI_LIVE_HOST, ...KHALTI_SANDBOX_HOSTS]),
          ] as const,
        ]
      : []),
    ...(providers.includes('esewa')
      ? (['ESEWA_FORM_URL', 'ESEWA_STATUS_URL'] as const).map(
          (name) => [name, e[name], 'eSewa', new Set([...ESEWA_LIVE_HOSTS, ...ESEWA_SANDBOX_HOSTS])] as const,
        )
      : []),
  ]
  const problems: string[] = []
  for (const [name, value, provider, hosts] of urls) {
    const url = new URL(value)
    const host = url.hostname.toLowerCase().replace(/\.$/, '')
    if (url.protocol !== 'https:') problems.push(`${name} must be an https:// address in production.`)
    if (!hosts.has(host))
      problems.push(`${name} names ${host}, which is not ${provider}'s (one of ${[...hosts].join(', ')}).`)
    else if (url.port !== '' && url.port !== '443') problems.push(`${name} must use ${provider}'s https port, 443.`)
  }
  return problems
}

function sandboxProblems(e: z.infer<typeof EnvSchema>, providers: readonly string[]): string[] {
  const problems: string[] = []
  const hint = 'set PAYMENT_SANDBOX=true if this server is meant to take test payments.'
  const host = (url: string) => new URL(url).hostname.toLowerCase()
  const isSubdomainOf = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`)
  if (providers.includes('khalti')) {
    const khaltiHost = host(e.KHALTI_BASE_URL)
    if (isSubdomainOf(khaltiHost, KHALTI_LIVE_HOST) && khaltiHost !== KHALTI_LIVE_HOST)
      problems.push(`KHALTI_BASE_URL is Khalti's test host ${khaltiHost} (live: https://khalti.com/api/v2/); ${hint}`)
    if (/^test_/i.test(e.KHALTI_SECRET_KEY ?? ''))
      problems.push(`KHALTI_SECRET_KEY is a Khalti test key; use the live key, or ${hint}`)
  }
  if (providers.includes('esewa')) {
    for (const [name, url] of [
      ['ESEWA_FORM_URL', e.ESEWA_FORM_URL],
      ['ESEWA_STATUS_URL', e.ESEWA_STATUS_URL],
    ] as const) {
      const esewaHost = host(url)
      if (isSubdomainOf(esewaHost, 'esewa.com.np') && !ESEWA_LIVE_HOSTS.has(esewaHost))
        problems.push(`${name} is eSewa's test host ${esewaHost} (live: epay.esewa.com.np); ${hint}`)
    }
    if (e.ESEWA_PRODUCT_CODE?.toUpperCase() === ESEWA_TEST_PRODUCT_CODE)
      problems.push(`ESEWA_PRODUCT_CODE is eSewa's test code EPAYTEST; use your merchant code, or ${hint}`)
    if (e.ESEWA_SECRET_KEY === ESEWA_TEST_SECRET_KEY)
      problems.push(`ESEWA_SECRET_KEY is eSewa's published test key; use your merchant key, or ${hint}`)
  }
  return problems
}

/** Development convenience: a secret made once and kept in DATA_DIR, so tokens survive restarts. */
function localSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret')
  if (existsSync(file)) {
    closeExisting([file])
    return readFileSync(file, 'utf8').trim()
  }
  ensurePrivateDir(dataDir)
  const secret = randomBytes(32).toString('hex')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}

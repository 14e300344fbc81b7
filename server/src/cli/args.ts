import { parseArgs, type ParseArgsConfig } from 'node:util'

export class UsageError extends Error {}

function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values
  } catch (error) {
    // node:util reports unknown flags and missing values as TypeError with an ERR_PARSE_ARGS_* code.
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
}

function required(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`Missing --${flag}.`)
  return value
}

const instituteNote =
  '  --institute SLUG: in that institute (default: the only one; required when the deployment has several).'

export const createAdminUsage =
  'Usage: npm run create-admin -- --username NAME --password PASS --phone NNNNNNNNNN\n' +
  '       npm run create-admin -- --username NAME --promote\n' +
  '  Creates the admin NAME (refused if NAME exists), or with --promote makes the existing user NAME an admin.\n' +
  instituteNote +
  '\n  With --platform: a platform admin (of no institute; runs the institutes from PLATFORM_HOST).'

export function parseCreateAdminArgs(argv: string[]) {
  const values = parse(argv, {
    username: { type: 'string' },
    password: { type: 'string' },
    phone: { type: 'string' },
    promote: { type: 'boolean', default: false },
    institute: { type: 'string' },
    platform: { type: 'boolean', default: false },
  })
  const promote = values.promote === true
  if (promote && (values.password !== undefined || values.phone !== undefined))
    throw new UsageError('--promote makes an existing user an admin as they are: it takes no --password or --phone.')
  return {
    username: required(values.username, 'username'),
    password: values.password,
    phone: values.phone,
    promote,
    institute: values.institute?.trim(),
    // docs/decisions/097: only when given, so that the admin's arguments read as before.
    ...(values.platform === true && { platform: true }),
  }
}

export const createInstituteUsage =
  'Usage: npm run create-institute -- --slug SLUG --name-en NAME [--name-ne NAME] [--host HOST]...\n' +
  '  Creates the institute SLUG (3 to 30 of a-z, 0-9 and -), answering on each HOST and on SLUG.BASE_DOMAIN.'

export function parseCreateInstituteArgs(argv: string[]) {
  const values = parse(argv, {
    slug: { type: 'string' },
    'name-en': { type: 'string' },
    'name-ne': { type: 'string' },
    host: { type: 'string', multiple: true },
  })
  return {
    slug: required(values.slug, 'slug').trim(),
    name: { en: required(values['name-en'], 'name-en').trim(), ne: values['name-ne']?.trim() ?? '' },
    hosts: values.host ?? [],
  }
}

export const createLearnersUsage =
  'Usage: npm run create-learners -- --count N --prefix NAME --password PASS\n' +
  '  Creates learners NAME1..NAMEN (skipping names that exist), all with password PASS.\n' +
  instituteNote

export function parseCreateLearnersArgs(argv: string[]) {
  const values = parse(argv, {
    count: { type: 'string' },
    prefix: { type: 'string' },
    password: { type: 'string' },
    institute: { type: 'string' },
  })
  const countText = required(values.count, 'count')
  if (!/^\d+$/.test(countText.trim())) throw new UsageError(`--count must be a whole number, not "${countText}".`)
  return {
    count: Number(countText),
    prefix: required(values.prefix, 'prefix').trim(),
    password: required(values.password, 'password'),
    institute: values.institute?.trim(),
  }
}

export const grantPaidAccessUsage =
  'Usage: npm run grant-paid-access -- --username NAME [--days N | --revoke]\n' +
  '  Lets NAME take paid-tier quizzes: with no end, or for N more days (counted from the later of now and the\n' +
  '  current end); with --revoke, withdraws that. NAME must be a member of the institute.\n' +
  instituteNote

export function parseGrantPaidAccessArgs(argv: string[]) {
  const values = parse(argv, {
    username: { type: 'string' },
    revoke: { type: 'boolean', default: false },
    days: { type: 'string' },
    institute: { type: 'string' },
  })
  const username = required(values.username, 'username').trim()
  const revoke = values.revoke === true
  const institute = values.institute?.trim()
  if (values.days === undefined) return { username, revoke, institute }
  if (revoke) throw new UsageError('--days and --revoke cannot be used together.')
  const text = values.days.trim()
  const days = Number(text)
  if (!/^\d+$/.test(text) || days < 1 || days > 3660)
    throw new UsageError(`--days must be a whole number from 1 to 3660, not "${values.days}".`)
  return { username, revoke, days, institute }
}

export const backupUsage =
  'Usage: npm run backup -- --out FILE\n' +
  '  Writes a consistent copy of the SQLite database to FILE (a new file) while servers keep running.\n' +
  '  With PostgreSQL, use pg_dump instead (README, "Backups").'

export function parseBackupArgs(argv: string[]) {
  return { out: required(parse(argv, { out: { type: 'string' } }).out, 'out') }
}

export const filesMigrateUsage =
  'Usage: npm run files:migrate -- [--batch N]\n' +
  '  Moves the files the database still holds (pictures, sheet photos, pages) into the file store (FILE_STORE),\n' +
  '  N rows at a time (default 100). Safe while servers serve; stopped, it goes on where it was when run again.'

export function parseFilesMigrateArgs(argv: string[]) {
  const { batch } = parse(argv, { batch: { type: 'string' } })
  if (batch === undefined) return { batch: 100 }
  const size = Number(batch)
  if (!/^\d+$/.test(batch) || size < 1 || size > 10_000)
    throw new UsageError(`--batch must be a whole number from 1 to 10000, not "${batch}".`)
  return { batch: size }
}

export const restoreUsage =
  'Usage: npm run restore -- FILE\n' +
  '  Puts the backup FILE in place of the SQLite database; refuses while a server has the database open.\n' +
  '  The database it replaces is kept beside it as quiz.db.before-restore-<time>.'

export function parseRestoreArgs(argv: string[]) {
  const [file, ...rest] = argv
  if (file === undefined || file.startsWith('-')) throw new UsageError('Name the backup file to restore.')
  if (rest.length > 0) throw new UsageError(`Unexpected arguments: ${rest.join(' ')}`)
  return { file }
}

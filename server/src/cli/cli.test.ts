import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  parseBackupArgs,
  parseCreateAdminArgs,
  parseCreateLearnersArgs,
  parseGrantPaidAccessArgs,
  parseRestoreArgs,
  UsageError,
} from './args'

describe('command-line arguments', () => {
  it('parses create-admin arguments', () => {
    expect(parseCreateAdminArgs(['--username', 'boss', '--password', 'Pass-word-99', '--phone', '9800000001'])).toEqual(
      {
        username: 'boss',
        password: 'Pass-word-99',
        phone: '9800000001',
        promote: false,
      },
    )
    expect(parseCreateAdminArgs(['--username=boss', '--promote'])).toEqual({
      username: 'boss',
      password: undefined,
      phone: undefined,
      promote: true,
    })
  })

  it('parses create-admin --platform', () => {
    expect(parseCreateAdminArgs(['--username', 'operator', '--promote', '--platform'])).toMatchObject({
      username: 'operator',
      promote: true,
      platform: true,
    })
  })

  it('parses create-learners and grant-paid-access arguments', () => {
    expect(parseCreateLearnersArgs(['--count', '50', '--prefix', 'demo', '--password', 'Pathshala-2026'])).toEqual({
      count: 50,
      prefix: 'demo',
      password: 'Pathshala-2026',
    })
    expect(parseGrantPaidAccessArgs(['--username', 'sita'])).toEqual({ username: 'sita', revoke: false })
    expect(parseGrantPaidAccessArgs(['--username', 'sita', '--revoke'])).toEqual({ username: 'sita', revoke: true })
    expect(parseGrantPaidAccessArgs(['--username', 'sita', '--days', '30'])).toEqual({
      username: 'sita',
      revoke: false,
      days: 30,
    })
    expect(() => parseGrantPaidAccessArgs(['--username', 'sita', '--days', '0'])).toThrow(UsageError)
    expect(() => parseGrantPaidAccessArgs(['--username', 'sita', '--days', '3', '--revoke'])).toThrow(UsageError)
    expect(parseBackupArgs(['--out', 'backups/exam-day.db'])).toEqual({ out: 'backups/exam-day.db' })
    expect(parseRestoreArgs(['backups/exam-day.db'])).toEqual({ file: 'backups/exam-day.db' })
  })

  it.each([
    ['a missing username', () => parseCreateAdminArgs([])],
    ['an unknown flag', () => parseCreateAdminArgs(['--username', 'boss', '--admin'])],
    ['a flag without its value', () => parseCreateAdminArgs(['--username'])],
    ['--promote with a password', () => parseCreateAdminArgs(['--username', 'boss', '--promote', '--password', 'x'])],
    ['a stray positional argument', () => parseGrantPaidAccessArgs(['sita'])],
    [
      'a count that is not a number',
      () => parseCreateLearnersArgs(['--count', 'ten', '--prefix', 'demo', '--password', 'x']),
    ],
    ['a missing prefix', () => parseCreateLearnersArgs(['--count', '10', '--password', 'x'])],
    ['a backup without --out', () => parseBackupArgs([])],
    ['a restore without a file', () => parseRestoreArgs([])],
    ['a restore of two files', () => parseRestoreArgs(['a.db', 'b.db'])],
  ])('refuses %s with a UsageError', (_label, parse) => {
    expect(parse).toThrow(UsageError)
  })
})

// The real entry points, run as `node` would run them (through tsx) on a scratch SQLite database.
describe('command-line tools', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quiz-cli-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  const run = (tool: string, args: string[]) => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, `${tool}.ts`), ...args],
      {
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, NODE_ENV: 'development' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    )
    return { status: result.status, stdout: result.stdout, stderr: result.stderr }
  }

  it('migrates, creates an admin, learners and paid access, printing what each did', () => {
    expect(run('migrate', [])).toMatchObject({ status: 0, stdout: expect.stringContaining('up to date') })
    const admin = run('create-admin', [
      '--username',
      'Principal',
      '--password',
      'Sagarmatha-8848',
      '--phone',
      '9800000100',
    ])
    expect(admin).toMatchObject({ status: 0, stdout: expect.stringContaining('Created admin Principal') })
    expect(run('create-admin', ['--username', 'principal'])).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('already an admin'),
    })
    const learners = run('create-learners', ['--count', '30', '--prefix', 'demo', '--password', 'Pathshala-2026'])
    expect(learners).toMatchObject({ status: 0, stdout: expect.stringContaining('Created 30 learners') })
    expect(run('grant-paid-access', ['--username', 'demo3'])).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('Granted paid access to demo3 with no end'),
    })
    expect(run('grant-paid-access', ['--username', 'demo4', '--days', '30'])).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/Granted paid access to demo4 until \d{4}-/),
    })
    expect(run('grant-paid-access', ['--username', 'demo3', '--revoke'])).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('Revoked'),
    })
    expect(
      run('create-institute', ['--slug', 'pathshala', '--name-en', 'Pathshala', '--host', 'pathshala.example.np']),
    ).toMatchObject({ status: 0, stdout: expect.stringContaining('Created institute pathshala (id 2)') })
    // Each tool is a process of its own, compiled by tsx as it starts: seconds each on a busy machine.
  }, 180_000)

  // docs/decisions/097: a platform admin is of no institute; an existing account only with --promote.
  it('creates a platform admin with --platform, and promotes an existing account only when told', () => {
    const made = run('create-admin', [
      '--platform',
      '--username',
      'operator',
      '--password',
      'Sagarmatha-8848',
      '--phone',
      '9800000102',
    ])
    expect(made).toMatchObject({ status: 0, stdout: expect.stringContaining('Created platform admin operator') })
    expect(run('create-admin', ['--platform', '--username', 'demo6'])).toMatchObject({ status: 1 })
    expect(run('create-admin', ['--platform', '--username', 'demo6', '--promote'])).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('a platform admin'),
    })
  }, 120_000)

  it('exits 2 with the usage on bad arguments and 1 on a refused command', () => {
    const bad = run('create-learners', ['--count', 'many'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain('Usage: npm run create-learners')
    const refused = run('grant-paid-access', ['--username', 'nobody', '--institute', 'main'])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain('No user named "nobody" exists.')
    const hostTaken = run('create-institute', [
      '--slug',
      'other',
      '--name-en',
      'Other',
      '--host',
      'pathshala.example.np',
    ])
    expect(hostTaken).toMatchObject({ status: 1, stderr: expect.stringContaining('is taken') })
    expect(run('create-institute', ['--name-en', 'No slug'])).toMatchObject({ status: 2 })
    // Two institutes now (made above): a tool that works in one must be told which.
    expect(run('create-admin', ['--username', 'demo5', '--promote'])).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('several institutes (main, pathshala)'),
    })
    expect(run('grant-paid-access', ['--username', 'demo5', '--institute', 'pathshala'])).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('not a member of this institute'),
    })
    // demo5 is a learner (made above): create-admin neither promotes it silently nor drops the password given.
    const taken = run('create-admin', [
      ...['--username', 'demo5', '--password', 'Sagarmatha-8848', '--phone', '9800000101', '--institute', 'main'],
    ])
    expect(taken.status).toBe(1)
    expect(taken.stderr).toContain('already exists')
    expect(run('create-admin', ['--username', 'demo5', '--institute', 'main'])).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('--promote'),
    })
    expect(run('create-admin', ['--username', 'demo5', '--promote', '--institute', 'pathshala'])).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('Made existing user demo5 (id'),
    })
    expect(run('create-learners', ['--count', '2', '--prefix', 'path', '--password', 'Pathshala-2026'])).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('--institute SLUG'),
    })
    expect(
      run('create-learners', [
        ...['--count', '2', '--prefix', 'path', '--password', 'Pathshala-2026', '--institute', 'pathshala'],
      ]),
    ).toMatchObject({ status: 0, stdout: expect.stringContaining('Created 2 learners') })
    expect(run('grant-paid-access', ['--username', 'path1', '--institute', 'pathshala'])).toMatchObject({
      status: 0,
      stdout: expect.stringContaining('Granted paid access to path1'),
    })
  }, 180_000)
})

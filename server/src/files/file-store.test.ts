import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalS3, type LocalS3 } from '../../test/local-s3'
import { FileStoreUnavailable, type FileStore } from './file-store'
import { createLocalStore } from './local-store'
import { createS3Store } from './s3-store'

// Both stores through one table: what one promises, the other keeps (docs/decisions/105).

let localRoot: string
let s3: LocalS3

beforeAll(async () => {
  localRoot = await mkdtemp(path.join(tmpdir(), 'quiz-files-'))
  s3 = await startLocalS3()
})

afterAll(async () => {
  await s3?.stop()
  await rm(localRoot, { recursive: true, force: true })
})

const stores: [string, () => FileStore][] = [
  ['local', () => createLocalStore(localRoot)],
  ['s3', () => createS3Store(s3.settings)],
]

describe.each(stores)('the %s file store', (_kind, storeOf) => {
  it('keeps, reads, tells and deletes a file by its key', async () => {
    const store = storeOf()
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])
    expect(await store.exists('pages/ab12')).toBe(false)
    expect(await store.get('pages/ab12')).toBeUndefined()
    await store.put('pages/ab12', bytes, 'image/jpeg')
    expect(await store.exists('pages/ab12')).toBe(true)
    expect(await store.get('pages/ab12')).toEqual(bytes)
    await store.put('pages/ab12', Buffer.from('second'), 'image/jpeg')
    expect((await store.get('pages/ab12'))?.toString()).toBe('second')
    await store.delete('pages/ab12')
    expect(await store.exists('pages/ab12')).toBe(false)
    expect(await store.get('pages/ab12')).toBeUndefined()
  })

  it('lists the files under a folder with when each was written, and none of another folder', async () => {
    const store = storeOf()
    const before = Date.now() - 1_000
    await store.put('listed/a', Buffer.from('a'), 'image/jpeg')
    await store.put('listed/b-phone', Buffer.from('b'), 'image/webp')
    await store.put('elsewhere/c', Buffer.from('c'), 'image/jpeg')
    const listed = []
    for await (const page of store.list('listed/')) listed.push(...page)
    expect(listed.map((file) => file.key).sort()).toEqual(['listed/a', 'listed/b-phone'])
    for (const file of listed) expect(file.modifiedAt).toBeGreaterThan(before)
    const none = []
    for await (const page of store.list('never/')) none.push(...page)
    expect(none).toEqual([])
  })

  it('deletes a file that is not there without an error', async () => {
    await expect(storeOf().delete('pages/never-kept')).resolves.toBeUndefined()
  })

  it('refuses a key that could leave its place', async () => {
    const store = storeOf()
    for (const key of ['../x', '/etc/passwd', 'a/../../b', 'a//b', ''])
      await expect(store.put(key, Buffer.from('x'), 'image/jpeg')).rejects.toThrow(/Not a file key/)
  })
})

describe('the local file store', () => {
  it('writes through a temporary file renamed into place, leaving no temporary file behind', async () => {
    const store = createLocalStore(localRoot)
    await store.put('scans/one', Buffer.alloc(100_000, 7), 'image/jpeg')
    expect(await readdir(path.join(localRoot, 'scans'))).toEqual(['one'])
  })

  it('gives no signed address: its files are served through the app', () => {
    expect(createLocalStore(localRoot).signedUrl).toBeUndefined()
  })

  it('is unreachable (FileStoreUnavailable, 503) where its directory cannot be written', async () => {
    const blocked = path.join(localRoot, 'blocked')
    await writeFile(blocked, 'a file where a directory should be')
    const store = createLocalStore(blocked)
    const error = await store.put('pages/x', Buffer.from('x'), 'image/jpeg').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(FileStoreUnavailable)
    expect((error as FileStoreUnavailable).status).toBe(503)
  })
})

describe('the S3 file store', () => {
  it('signs an address that serves the file for at most 5 minutes, and none past its time', async () => {
    const store = createS3Store(s3.settings)
    await store.put('pages/signed', Buffer.from('page bytes'), 'image/jpeg')
    const url = await store.signedUrl!('pages/signed', { seconds: 3600, contentType: 'image/jpeg' })
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('300')
    const signed = await fetch(url)
    expect(signed.status).toBe(200)
    expect(signed.headers.get('content-type')).toBe('image/jpeg')
    expect(await signed.text()).toBe('page bytes')
    // The bucket being private is the operator's to set (docs/operations.md): the local server reads any request.
    const short = await store.signedUrl!('pages/signed', { seconds: 1, contentType: 'image/jpeg' })
    await new Promise((resolve) => setTimeout(resolve, 2_100))
    expect((await fetch(short)).status).toBe(403)
  })

  it('is unreachable (FileStoreUnavailable, 503) when its server does not answer', async () => {
    const store = createS3Store({ ...s3.settings, endpoint: 'http://127.0.0.1:9', timeoutMs: 1_000 })
    for (const attempt of [
      () => store.get('pages/x'),
      () => store.put('pages/x', Buffer.from('x'), 'image/jpeg'),
      () => store.exists('pages/x'),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(FileStoreUnavailable)
    }
  })
})

import { picturePath, type Picture } from '@quiz/contracts'
import { LRUCache } from 'lru-cache'
import type { Config } from '../config'
import type { Database } from '../db/database'
import { currentInstitute, inRequestScope, outsideRequestScope } from '../db/request-scope'
import { forEachInstitute } from '../db/institute-jobs'
import { MAX_SIGNED_SECONDS, signedAddress, type FileStore } from '../files'
import type { Clock } from '../lib/clock'
import { encodePicture, type EncodedPicture, type PictureRefusal } from './picture-encoding'
import { pictureBytes, pictureFileKey, PICTURE_TYPE, storePictureFile } from './picture-files'
import { named, pictureKey, pictureName } from './picture-names'
import {
  deleteUnusedPictures,
  findPictureData,
  findPicturesByPixels,
  findPictureSizes,
  findPictureRow,
  findRecordedPictures,
  findUnkeyedPictures,
  isPictureUsed,
  recordPictureUses,
  copyPicture,
  deletePicture,
  findPicturesMadeBefore,
  findPicturesNamed,
  movePictureReferences,
  savePictures,
} from './pictures.repository'

const DAY = 24 * 60 * 60 * 1000
export const UNUSED_FOR = 30 * DAY
/** Old pictures the sweep looks at per step: a bound on the statements' lists. */
const SWEEP_PAGE = 500
/** Pictures kept in memory per process: a paper's pictures are asked by every learner at once. */
const CACHE_BYTES = 64 * 1024 * 1024
/** A picture deleted by another process's sweep is served from this one's memory at most this long. */
const CACHE_TTL_MS = 10 * 60 * 1000

export const pictureOf = (encoded: Pick<EncodedPicture, 'hash' | 'width' | 'height'>): Picture => ({
  url: picturePath(encoded.hash),
  width: encoded.width,
  height: encoded.height,
})

export function createPicturesService({
  database,
  clock,
  config,
  files,
}: {
  database: Database
  clock: Clock
  config: Pick<Config, 'jwtSecret'> & Partial<Pick<Config, 'signedRedirects'>>
  files: FileStore
}) {
  const db = database.db
  const key = pictureKey(config.jwtSecret)
  const served = new LRUCache<string, Buffer>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (data) => data.length,
    ttl: CACHE_TTL_MS,
    perf: { now: () => clock.now() },
  })
  // One read per picture per process, even when 200 learners ask for it in the same instant.
  const reading = new Map<string, Promise<Buffer | undefined>>()
  // "institute:hash" of the pictures an institute uses: a paper's picture asked by every learner is looked up once.
  // Only yes is kept: a picture stored a moment later answers at once. A use is never taken back (decision 100).
  // Bounded by count through maxSize: `max` makes lru-cache allocate its 100,000 places (with TTLs) at once, 10 ms of
  // every app's start (every test's).
  const used = new LRUCache<string, true>({
    maxSize: 100_000,
    sizeCalculation: () => 1,
    ttl: CACHE_TTL_MS,
    perf: { now: () => clock.now() },
  })
  const checking = new Map<string, Promise<boolean>>()

  async function usedHere(institute: number, hash: string): Promise<boolean> {
    const key = `${institute}:${hash}`
    if (used.has(key)) return true
    let pending = checking.get(key)
    if (!pending) {
      pending = isPictureUsed(db, hash).finally(() => checking.delete(key))
      checking.set(key, pending)
    }
    const yes = await pending
    if (yes) used.set(key, true)
    return yes
  }

  async function read(hash: string): Promise<Buffer | undefined> {
    const cached = served.get(hash)
    if (cached) return cached
    let pending = reading.get(hash)
    if (!pending) {
      pending = findPictureData(db, hash)
        .then((row) => (row ? pictureBytes(files, row) : undefined))
        .finally(() => reading.delete(hash))
      reading.set(hash, pending)
    }
    const data = await pending
    if (data) served.set(hash, data)
    return data
  }

  /**
   * Writes the pictures' files, then records them; if recording fails, the files no row names are removed again,
   * so a failed upload leaves neither a row nor a file of its own (docs/decisions/112).
   */
  async function save(encoded: readonly EncodedPicture[], used = true): Promise<void> {
    const stored = []
    try {
      for (const picture of encoded) stored.push(await storePictureFile(files, picture))
      await savePictures(db, stored, clock.now(), used)
    } catch (error) {
      await discardUnrecorded(stored.map((picture) => picture.hash)).catch(() => {})
      throw error
    }
  }

  async function discardUnrecorded(hashes: readonly string[]) {
    if (hashes.length === 0) return
    const recorded = await findRecordedPictures(db, hashes)
    for (const hash of hashes) if (!recorded.has(hash)) await files.delete(pictureFileKey(hash)).catch(() => {})
  }

  async function encode(bytes: Buffer): Promise<EncodedPicture | PictureRefusal> {
    const encoded = await encodePicture(bytes)
    return typeof encoded === 'string' ? encoded : named(key, encoded)
  }

  return {
    key,

    encode,

    /** `used` false: no institute uses it yet (a platform admin's logo, given its institute by `useIn`). */
    async store(bytes: Buffer, { used = true } = {}): Promise<Picture | PictureRefusal> {
      const encoded = await encode(bytes)
      if (typeof encoded === 'string') return encoded
      await save([encoded], used)
      return pictureOf(encoded)
    },

    async saveEncoded(encoded: readonly EncodedPicture[]): Promise<void> {
      await save(encoded)
    },

    async alreadyStored(encoded: readonly EncodedPicture[]): Promise<Map<string, Picture>> {
      const sources = encoded.flatMap((picture) => (picture.sourcePixelsHash ? [picture.sourcePixelsHash] : []))
      const stored = await findPicturesByPixels(db, sources)
      const found = new Map<string, Picture>()
      const kept: string[] = []
      for (const picture of encoded) {
        const same = picture.sourcePixelsHash === null ? undefined : stored.get(picture.sourcePixelsHash)
        if (same && same.hash !== picture.hash) {
          found.set(picture.hash, pictureOf(same))
          kept.push(same.hash)
        }
      }
      // The bytes are kept once; the institute that sent them again now uses them too.
      await recordPictureUses(db, kept)
      return found
    },

    /** Records that `institute` uses the pictures, from outside its scope (a platform admin setting its logo). */
    useIn: (institute: number, hashes: readonly string[]) =>
      inRequestScope({ requestId: 'picture-use', institute }, () => recordPictureUses(db, hashes)),

    /** Of pictures named by URL: with more than one institute, only those the request's institute uses. */
    sizesOf: (hashes: readonly string[]) => findPictureSizes(db, hashes, currentInstitute() !== undefined),

    read,

    /**
     * A picture by its URL on the request's host: with more than one institute, only one its institute stored or
     * uses (decision 100); another's is as unknown as no picture.
     */
    async readOnHost(hash: string): Promise<Buffer | undefined> {
      const institute = currentInstitute()
      if (institute !== undefined && !(await usedHere(institute, hash))) return undefined
      return read(hash)
    },

    /**
     * With S3_SIGNED_REDIRECTS, the store's signed address of a picture the request's host may show (the same check
     * as readOnHost); undefined where the app serves the bytes (redirects off, a picture kept in its row).
     */
    async signedOnHost(hash: string): Promise<string | undefined> {
      if (!config.signedRedirects) return undefined
      const institute = currentInstitute()
      if (institute !== undefined && !(await usedHere(institute, hash))) return undefined
      const row = await findPictureData(db, hash)
      if (!row) return undefined
      return signedAddress(files, true, row.data_key, { seconds: MAX_SIGNED_SECONDS, contentType: PICTURE_TYPE })
    },

    readAhead(hashes: readonly string[]): void {
      const missing = hashes.filter((hash) => !served.has(hash))
      if (missing.length === 0) return
      void (async () => {
        for (const hash of missing) await read(hash)
      })().catch(() => {
        // A failed read ahead costs nothing: the picture's own request reads it again and answers for it.
      })
    },

    // Deployment-wide whoever calls them, institute by institute: a picture one institute no longer uses may be
    // another's, and under PostgreSQL's row security each institute's rows are read in its own scope (decision 098).
    nameUnkeyed: () => outsideRequestScope(nameUnkeyed),

    deleteUnused: () => outsideRequestScope(deleteUnused),
  }

  async function nameUnkeyed(): Promise<number> {
    const unkeyed = await findUnkeyedPictures(db)
    for (const hash of unkeyed) {
      const to = pictureName(key, hash)
      const row = await findPictureRow(db, hash)
      // The renamed picture's file is written under its new name before its row: a row never names a missing file.
      const bytes = row && (await pictureBytes(files, row))
      if (row && bytes) {
        const stored = await storePictureFile(files, {
          hash: to,
          data: bytes,
          width: row.width,
          height: row.height,
          pixelsHash: row.pixels_hash,
          sourcePixelsHash: null,
        })
        await database.transaction((trx) => copyPicture(trx, row, stored))
      }
      await forEachInstitute(database, 'pictures', () =>
        database.transaction((trx) => movePictureReferences(trx, hash, to)),
      )
      await database.transaction((trx) => deletePicture(trx, hash))
      if (row?.data_key) await files.delete(row.data_key).catch(() => {})
    }
    return unkeyed.length
  }

  // A picture goes when no institute names it.
  async function deleteUnused(): Promise<number> {
    const now = clock.now()
    const before = now - UNUSED_FOR
    let deleted = 0
    for (let after = ''; ;) {
      const old = await findPicturesMadeBefore(db, before, after, SWEEP_PAGE)
      if (old.length === 0) return deleted
      after = old.at(-1)!
      const named = new Set<string>()
      await forEachInstitute(database, 'pictures', async () => {
        for (const hash of await findPicturesNamed(db, old, now)) named.add(hash)
      })
      const unnamed = old.filter((hash) => !named.has(hash))
      const gone = await deleteUnusedPictures(db, unnamed, before, now)
      for (const { hash, data_key } of gone) {
        served.delete(hash)
        // After the rows' statement: a file whose delete fails is left for the store's sweep (files-sweep.ts).
        if (data_key) await files.delete(data_key).catch(() => {})
      }
      deleted += gone.length
    }
  }
}

export type PicturesService = ReturnType<typeof createPicturesService>

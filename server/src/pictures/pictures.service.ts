import { picturePath, type Picture } from '@quiz/contracts'
import { LRUCache } from 'lru-cache'
import type { Config } from '../config'
import type { Database } from '../db/database'
import { forEachInstitute } from '../db/institute-jobs'
import type { Clock } from '../lib/clock'
import { encodePicture, type EncodedPicture, type PictureRefusal } from './picture-encoding'
import { named, pictureKey, pictureName } from './picture-names'
import {
  deleteUnusedPictures,
  findPictureData,
  findPicturesByPixels,
  findPictureSizes,
  findUnkeyedPictures,
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
}: {
  database: Database
  clock: Clock
  config: Pick<Config, 'jwtSecret'>
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

  async function read(hash: string): Promise<Buffer | undefined> {
    const cached = served.get(hash)
    if (cached) return cached
    let pending = reading.get(hash)
    if (!pending) {
      pending = findPictureData(db, hash).finally(() => reading.delete(hash))
      reading.set(hash, pending)
    }
    const data = await pending
    if (data) served.set(hash, data)
    return data
  }

  async function encode(bytes: Buffer): Promise<EncodedPicture | PictureRefusal> {
    const encoded = await encodePicture(bytes)
    return typeof encoded === 'string' ? encoded : named(key, encoded)
  }

  return {
    key,

    encode,

    async store(bytes: Buffer): Promise<Picture | PictureRefusal> {
      const encoded = await encode(bytes)
      if (typeof encoded === 'string') return encoded
      await savePictures(db, [encoded], clock.now())
      return pictureOf(encoded)
    },

    async saveEncoded(encoded: readonly EncodedPicture[]): Promise<void> {
      await savePictures(db, encoded, clock.now())
    },

    async alreadyStored(encoded: readonly EncodedPicture[]): Promise<Map<string, Picture>> {
      const sources = encoded.flatMap((picture) => (picture.sourcePixelsHash ? [picture.sourcePixelsHash] : []))
      const stored = await findPicturesByPixels(db, sources)
      const found = new Map<string, Picture>()
      for (const picture of encoded) {
        const same = picture.sourcePixelsHash === null ? undefined : stored.get(picture.sourcePixelsHash)
        if (same && same.hash !== picture.hash) found.set(picture.hash, pictureOf(same))
      }
      return found
    },

    sizesOf: (hashes: readonly string[]) => findPictureSizes(db, hashes),

    read,

    readAhead(hashes: readonly string[]): void {
      const missing = hashes.filter((hash) => !served.has(hash))
      if (missing.length === 0) return
      void (async () => {
        for (const hash of missing) await read(hash)
      })().catch(() => {
        // A failed read ahead costs nothing: the picture's own request reads it again and answers for it.
      })
    },

    async nameUnkeyed(): Promise<number> {
      const unkeyed = await findUnkeyedPictures(db)
      for (const hash of unkeyed) {
        const to = pictureName(key, hash)
        await database.transaction((trx) => copyPicture(trx, hash, to))
        await forEachInstitute(database, 'pictures', () =>
          database.transaction((trx) => movePictureReferences(trx, hash, to)),
        )
        await database.transaction((trx) => deletePicture(trx, hash))
      }
      return unkeyed.length
    },

    // Shared by institutes (content-addressed): a picture goes when no institute names it (docs/decisions/098).
    async deleteUnused(): Promise<number> {
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
        const hashes = await deleteUnusedPictures(
          db,
          old.filter((hash) => !named.has(hash)),
          before,
          now,
        )
        for (const hash of hashes) served.delete(hash)
        deleted += hashes.length
      }
    },
  }
}

export type PicturesService = ReturnType<typeof createPicturesService>

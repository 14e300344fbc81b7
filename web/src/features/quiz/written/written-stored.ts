import type { WrittenPage } from '@quiz/contracts'
import type { PageRefusal } from './written-transport'

// What the device keeps of an attempt's written answers in localStorage (photos waiting are in IndexedDB,
// page-store.ts). handed-in.ts reads the same entry at the app's start without loading this code.

/** A page in its place: on the server (`page`), refused for good (`refusal`), or a photo waiting (neither). */
export interface StoredPage {
  key: string
  page: WrittenPage | null
  refusal: PageRefusal | null
}

export interface Stored {
  texts: Record<string, string>
  pendingTexts: string[]
  pages: Record<string, StoredPage[]>
  /** Page ids in the order the server holds them. */
  serverOrder: Record<string, number[]>
  deletes: { questionId: number; pageId: number }[]
  closed: boolean
  /** The attempt was handed in: only pages are left to send (resume-uploads.ts finishes them after a reload). */
  handedIn?: boolean
}

export const writtenStorageKey = (attemptId: number) => `quiz-written:${attemptId}`

/** The kept entry, null when there is none; throws when storage or the entry cannot be read. */
export function readStored(storage: Storage | undefined, key: string): Partial<Stored> | null {
  const raw = storage?.getItem(key)
  return raw ? (JSON.parse(raw) as Partial<Stored>) : null
}

export function writeStored(storage: Storage | undefined, key: string, stored: Stored) {
  try {
    storage?.setItem(key, JSON.stringify(stored))
  } catch {
    // Storage full or off: memory and the server still hold the answer.
  }
}

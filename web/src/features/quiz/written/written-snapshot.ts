import type { WrittenPage } from '@quiz/contracts'
import { countWords } from './word-count'
import type { StoredPage } from './written-stored'
import type { PageRefusal } from './written-transport'

// What the exam screen reads of the written queue: one immutable snapshot per change (useSyncExternalStore).

export interface WrittenPageEntry {
  /** Stable on this device: React's key and the photo's IndexedDB key while it waits. */
  key: string
  /** `queued` waits on the device; `sent` is on the server (`page`); `refused` will not go (`refusal`). */
  status: 'queued' | 'sending' | 'sent' | 'refused'
  page: WrittenPage | null
  refusal: PageRefusal | null
  /** An object URL of the photo on the device, else the server's signed address. */
  preview: string | null
}

export interface WrittenAnswerState {
  text: string
  words: number
  pages: WrittenPageEntry[]
}

export interface WrittenSnapshot {
  answers: Record<string, WrittenAnswerState>
  /** Questions with text or a page that is not refused: the palette counts them answered. */
  answered: Record<string, true>
  /** Pages waiting on the device or on their way. */
  pagesLeft: number
  /** Texts not yet confirmed by the server. */
  textsLeft: number
  status: 'saved' | 'saving' | 'offline' | 'retrying'
  /** The server takes no more pages (the upload grace is over): `lost` pages did not arrive. */
  closed: { lost: number } | null
}

/** The queue's state a snapshot is made of. */
export interface QueueState {
  texts: Readonly<Record<string, string>>
  pages: Readonly<Record<string, readonly StoredPage[]>>
  textsLeft: number
  /** Object URLs of photos on this device, by page key. */
  previews: ReadonlyMap<string, string>
  /** The page on its way now. */
  sendingKey: string | null
  status: WrittenSnapshot['status']
  closed: boolean
}

export function snapshotOf(state: QueueState): WrittenSnapshot {
  const answers: Record<string, WrittenAnswerState> = {}
  const answered: Record<string, true> = {}
  let pagesLeft = 0
  const ids = new Set([...Object.keys(state.texts), ...Object.keys(state.pages)])
  for (const id of ids) {
    const text = state.texts[id] ?? ''
    const pages = (state.pages[id] ?? []).map((entry): WrittenPageEntry => {
      const status = entry.page
        ? 'sent'
        : entry.refusal
          ? 'refused'
          : entry.key === state.sendingKey
            ? 'sending'
            : 'queued'
      if (status === 'queued' || status === 'sending') pagesLeft += 1
      return {
        key: entry.key,
        status,
        page: entry.page,
        refusal: entry.refusal,
        // A sent page's thumbnail is its phone rendition (~40 KB), not the page as stored (~260 KB): decision 078.
        preview: state.previews.get(entry.key) ?? entry.page?.phone_url ?? null,
      }
    })
    answers[id] = { text, words: countWords(text), pages }
    if (text.trim() !== '' || pages.some((page) => page.status !== 'refused')) answered[id] = true
  }
  return {
    answers,
    answered,
    pagesLeft,
    textsLeft: state.textsLeft,
    status: state.status,
    closed: state.closed ? { lost: lostPages(state.pages) } : null,
  }
}

function lostPages(pages: QueueState['pages']) {
  let lost = 0
  for (const list of Object.values(pages)) lost += list.filter((entry) => entry.refusal === 'upload_closed').length
  return lost
}

/** The exam bar's one save status over the answers and the written answers: the worse of the two. */
export function combinedStatus<Status extends string>(answers: Status, written: WrittenSnapshot['status']): Status {
  const rank = ['saved', 'saving', 'retrying', 'offline', 'failed']
  return (rank.indexOf(written) > rank.indexOf(answers) ? written : answers) as Status
}

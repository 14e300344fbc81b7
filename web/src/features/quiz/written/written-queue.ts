import { onlineManager } from '@tanstack/react-query'
import type { SavedWrittenAnswer, WrittenPage } from '@quiz/contracts'
import { ApiError } from '../../../api/api-error'
import { backoffDelay, type Connection } from '../answer-queue'
import { deleteQueuedPage, getQueuedPage, putQueuedPage, queuedPageKeys, type QueuedPageBlob } from './page-store'
import { countWords } from './word-count'

/** Why the server would not take a page; the screen says each in words. */
export type PageRefusal = 'too_large' | 'too_many_pages' | 'not_a_photo' | 'upload_closed' | 'other'

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

export interface WrittenTransport {
  putText: (questionId: number, text: string) => Promise<unknown>
  uploadPage: (questionId: number, image: Blob) => Promise<WrittenPage>
  deletePage: (questionId: number, pageId: number) => Promise<unknown>
  orderPages: (questionId: number, order: number[]) => Promise<{ pages: WrittenPage[] }>
}

/** Where photos wait: IndexedDB unless a test gives another. */
export interface PageBlobStore {
  put: (key: string, page: QueuedPageBlob) => Promise<void>
  get: (key: string) => Promise<QueuedPageBlob | undefined>
  remove: (key: string) => Promise<void>
  keys: () => Promise<string[]>
}

export function indexedDbPageStore(attemptId: number): PageBlobStore {
  return {
    put: (key, page) => putQueuedPage(attemptId, key, page),
    get: (key) => getQueuedPage(attemptId, key),
    remove: (key) => deleteQueuedPage(attemptId, key),
    keys: () => queuedPageKeys(attemptId),
  }
}

export interface WrittenQueueOptions {
  storageKey: string
  transport: WrittenTransport
  pageStore: PageBlobStore
  storage?: Storage
  connection?: Connection
  debounceMs?: number
  retryDelayMs?: (failures: number) => number
  /** Object URLs for previews (tests without a DOM's URL.createObjectURL give their own). */
  previewOf?: (blob: Blob) => string | null
}

interface StoredPage {
  key: string
  page: WrittenPage | null
  refusal: PageRefusal | null
}
interface Stored {
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

const DEFAULT_DEBOUNCE_MS = 1000

export const writtenStorageKey = (attemptId: number) => `quiz-written:${attemptId}`

const randomKey = () => `p${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`

function refusalOf(error: unknown): PageRefusal | null {
  if (!(error instanceof ApiError)) return null
  if (error.code === 'upload_closed') return 'upload_closed'
  if (error.code === 'too_many_pages') return 'too_many_pages'
  if (error.status === 413) return 'too_large'
  if (error.status === 415 || error.status === 400) return 'not_a_photo'
  return null
}

/** Worth trying again: no answer, a server failure, or no session (a learner signs in again; the photo waits). */
export const isTransient = (error: unknown) =>
  !(error instanceof ApiError) ||
  error.isNetworkError ||
  error.status === 401 ||
  error.status === 429 ||
  error.status >= 500

/**
 * A written answer's text and page photos for one attempt, and what the server has not got yet. Texts and the
 * pages' places are kept in localStorage, photos waiting to go in IndexedDB; everything goes one request at a time
 * (a phone on a bad connection sends one photo well rather than three badly), retried with backoff, and at once
 * when the connection returns. Pages keep going after the hand-in until the server says the upload grace is over.
 */
export class WrittenQueue {
  private texts: Record<string, string> = {}
  private pendingTexts = new Set<string>()
  private pages: Record<string, StoredPage[]> = {}
  private serverOrder: Record<string, number[]> = {}
  private deletes: { questionId: number; pageId: number }[] = []
  private closed = false
  /** Keys of pages in flight, and previews made on this device. */
  private sendingKey: string | null = null
  private readonly previews = new Map<string, string>()
  private status: WrittenSnapshot['status'] = 'saved'
  private textsOpen = true
  private snapshot: WrittenSnapshot
  private readonly listeners = new Set<() => void>()
  private timer: ReturnType<typeof setTimeout> | null = null
  private pumping: Promise<void> | null = null
  private failures = 0
  private running = false
  private unsubscribe: (() => void) | null = null
  private readonly options: Required<Omit<WrittenQueueOptions, 'storage'>> & Pick<WrittenQueueOptions, 'storage'>
  /** Resolves once the photos kept on the device have been found (a reload). */
  readonly ready: Promise<void>
  /** This device held the attempt's written answers (a reload): they are at least as new as a copy of the attempt. */
  restored = false

  constructor(options: WrittenQueueOptions) {
    this.options = {
      storage: typeof localStorage === 'undefined' ? undefined : localStorage,
      connection: onlineManager,
      debounceMs: DEFAULT_DEBOUNCE_MS,
      retryDelayMs: backoffDelay,
      previewOf: (blob) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(blob) : null),
      ...options,
    }
    this.load()
    this.snapshot = this.makeSnapshot()
    this.ready = this.restorePhotos()
  }

  private load() {
    try {
      const raw = this.options.storage?.getItem(this.options.storageKey)
      if (!raw) return
      const stored = JSON.parse(raw) as Partial<Stored>
      this.restored = true
      this.texts = { ...stored.texts }
      this.pendingTexts = new Set(stored.pendingTexts)
      this.pages = { ...stored.pages }
      this.serverOrder = { ...stored.serverOrder }
      this.deletes = [...(stored.deletes ?? [])]
      this.closed = stored.closed === true
      this.textsOpen = stored.handedIn !== true
    } catch {
      // Unreadable: start empty (the server keeps what it got).
    }
  }

  private persist() {
    try {
      this.options.storage?.setItem(
        this.options.storageKey,
        JSON.stringify({
          texts: this.texts,
          pendingTexts: [...this.pendingTexts],
          pages: this.pages,
          serverOrder: this.serverOrder,
          deletes: this.deletes,
          closed: this.closed,
          handedIn: !this.textsOpen,
        } satisfies Stored),
      )
    } catch {
      // Storage full or off: memory and the server still hold the answer.
    }
  }

  /** Previews for photos kept on the device; a queued page whose photo is gone (storage cleared) is dropped. */
  private async restorePhotos() {
    // Most attempts have no photo waiting: IndexedDB is not even opened for them.
    if (!this.hasWaitingPhotos()) return
    let kept: Set<string>
    try {
      kept = new Set(await this.options.pageStore.keys())
    } catch {
      kept = new Set()
    }
    // The pages as they are now, not as they were before the wait: the server's copy may have been merged meanwhile.
    let changed = false
    for (const [questionId, list] of Object.entries(this.pages)) {
      const rest = list.filter((entry) => entry.page || entry.refusal || kept.has(entry.key))
      if (rest.length === list.length) continue
      this.pages = { ...this.pages, [questionId]: rest }
      changed = true
    }
    const waiting = Object.values(this.pages).flatMap((list) => list.filter((entry) => !entry.page && !entry.refusal))
    for (const entry of waiting) {
      if (this.previews.has(entry.key)) continue
      const blob = await this.options.pageStore.get(entry.key).catch(() => undefined)
      const preview = blob ? this.options.previewOf(blob.blob) : null
      if (!preview) continue
      this.previews.set(entry.key, preview)
      changed = true
    }
    if (!changed) return
    this.persist()
    this.emit()
  }

  private hasWaitingPhotos() {
    return Object.values(this.pages).some((list) => list.some((entry) => !entry.page && !entry.refusal))
  }

  /**
   * Folds in the written answers as the server holds them (the attempt's payload: another device may have typed,
   * photographed, reordered or deleted since). What this device has not sent yet is newer than anything the server
   * has, so it wins; everything else comes from the server:
   * - text: a text still to send stays; otherwise the server's text, which may be another device's;
   * - pages: a page sent from here that the server no longer has was deleted elsewhere and goes; a page the server
   *   has that this device lacks (another device's) comes in; a page this device is still to delete stays out.
   *   Their order is this device's while it has an order to send (pages moved, or a photo placed before one sent);
   *   otherwise the server's, with photos still to send after them in the order they were added here.
   */
  mergeServer(server: Readonly<Record<string, SavedWrittenAnswer>>) {
    for (const [questionId, answer] of Object.entries(server)) {
      if (!this.pendingTexts.has(questionId)) this.texts = { ...this.texts, [questionId]: answer.text }
      this.mergePages(questionId, answer.pages)
    }
    this.persist()
    this.emit()
    if (this.hasWork()) this.kick(0)
  }

  private mergePages(questionId: string, serverPages: readonly WrittenPage[]) {
    const local = this.pages[questionId] ?? []
    const deleting = new Set(
      this.deletes.filter((entry) => String(entry.questionId) === questionId).map((entry) => entry.pageId),
    )
    const onServer = new Map(serverPages.map((page) => [page.id, page]))
    const localIds = new Set(local.flatMap((entry) => (entry.page ? [entry.page.id] : [])))
    const incoming = serverPages
      .filter((page) => !localIds.has(page.id) && !deleting.has(page.id))
      .map((page): StoredPage => ({ key: `s${page.id}`, page, refusal: null }))
    // The fresh page, signed anew: a kept address expires (docs/decisions/065).
    const refreshed = (entry: StoredPage): StoredPage[] => {
      if (!entry.page) return [entry]
      const page = onServer.get(entry.page.id)
      return page ? [{ ...entry, page }] : []
    }
    let pages: StoredPage[]
    if (this.hasOrderToSend(questionId, local)) {
      pages = [...local.flatMap(refreshed), ...incoming]
    } else {
      const byId = new Map(local.flatMap((entry) => (entry.page ? [[entry.page.id, entry] as const] : [])))
      const sent = serverPages
        .filter((page) => !deleting.has(page.id))
        .map((page) => ({ ...(byId.get(page.id) ?? { key: `s${page.id}`, refusal: null }), page }))
      pages = [...sent, ...local.filter((entry) => !entry.page)]
    }
    this.pages = { ...this.pages, [questionId]: pages }
    this.serverOrder = { ...this.serverOrder, [questionId]: serverPages.map((page) => page.id) }
  }

  /** This device placed its pages in an order the server has not been sent: moved, or a photo before a sent one. */
  private hasOrderToSend(questionId: string, local: readonly StoredPage[]) {
    const sentIds = local.flatMap((entry) => (entry.page ? [entry.page.id] : []))
    const known = (this.serverOrder[questionId] ?? []).filter((id) => sentIds.includes(id))
    const firstUnsent = local.findIndex((entry) => !entry.page)
    const photoBeforeSent = firstUnsent >= 0 && local.slice(firstUnsent).some((entry) => entry.page !== null)
    return photoBeforeSent || known.length !== sentIds.length || known.some((id, index) => id !== sentIds[index])
  }

  private makeSnapshot(): WrittenSnapshot {
    const answers: Record<string, WrittenAnswerState> = {}
    const answered: Record<string, true> = {}
    let pagesLeft = 0
    const ids = new Set([...Object.keys(this.texts), ...Object.keys(this.pages)])
    for (const id of ids) {
      const text = this.texts[id] ?? ''
      const pages = (this.pages[id] ?? []).map((entry): WrittenPageEntry => {
        const status = entry.page
          ? 'sent'
          : entry.refusal
            ? 'refused'
            : entry.key === this.sendingKey
              ? 'sending'
              : 'queued'
        if (status === 'queued' || status === 'sending') pagesLeft += 1
        return {
          key: entry.key,
          status,
          page: entry.page,
          refusal: entry.refusal,
          // A sent page's thumbnail is its phone rendition (~40 KB), not the page as stored (~260 KB): decision 078.
          preview: this.previews.get(entry.key) ?? entry.page?.phone_url ?? null,
        }
      })
      answers[id] = { text, words: countWords(text), pages }
      if (text.trim() !== '' || pages.some((page) => page.status !== 'refused')) answered[id] = true
    }
    return {
      answers,
      answered,
      pagesLeft,
      textsLeft: this.pendingTexts.size,
      status: this.status,
      closed: this.closed ? { lost: this.lostPages() } : null,
    }
  }

  private lostPages() {
    let lost = 0
    for (const list of Object.values(this.pages))
      lost += list.filter((entry) => entry.refusal === 'upload_closed').length
    return lost
  }

  private emit() {
    this.snapshot = this.makeSnapshot()
    for (const listener of this.listeners) listener()
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  getSnapshot = () => this.snapshot

  private hasWork() {
    if (this.closed) return this.pendingTexts.size > 0 && this.textsOpen
    return (
      (this.textsOpen && this.pendingTexts.size > 0) ||
      this.deletes.length > 0 ||
      Object.values(this.pages).some((list) => list.some((entry) => !entry.page && !entry.refusal)) ||
      Object.keys(this.pages).some((id) => this.orderToSend(id) !== null)
    )
  }

  /** The order to send for a question once all its photos are on the server and it differs from the server's. */
  private orderToSend(questionId: string): number[] | null {
    const list = this.pages[questionId] ?? []
    if (list.some((entry) => !entry.page && !entry.refusal)) return null
    const order = list.flatMap((entry) => (entry.page ? [entry.page.id] : []))
    const server = this.serverOrder[questionId] ?? []
    if (order.length !== server.length || order.every((id, index) => id === server[index])) return null
    return order
  }

  private readonly handleConnection = (online: boolean) => {
    if (online) {
      this.failures = 0
      this.kick(0)
    } else if (this.hasWork() && !this.pumping) {
      this.setStatus('offline')
    }
  }

  private setStatus(status: WrittenSnapshot['status']) {
    if (this.status === status) return
    this.status = status
    this.emit()
  }

  private kick(delayMs: number) {
    if (!this.running) return
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = null
      void this.flush()
    }, delayMs)
  }

  start() {
    if (this.running) return
    this.running = true
    this.unsubscribe = this.options.connection.subscribe(this.handleConnection)
    void this.ready.then(() => this.kick(0))
  }

  /** Stops sending (the page goes away); everything stays on the device. */
  pause() {
    this.running = false
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.unsubscribe?.()
    this.unsubscribe = null
  }

  get handedIn() {
    return !this.textsOpen
  }

  /**
   * Keeps sending after the exam screen has gone (the learner went back to the dashboard), and forgets the
   * attempt's written answers once every page has arrived or the grace is over.
   */
  finishInBackground() {
    const done = () => {
      const { pagesLeft, status } = this.snapshot
      if (pagesLeft > 0 || status !== 'saved') return false
      unsubscribe()
      this.clear()
      return true
    }
    const unsubscribe = this.subscribe(() => void done())
    if (!done()) this.start()
  }

  /** The attempt is handed in: texts are closed (the submission saw them), pages keep going through the grace. */
  closeTexts() {
    this.textsOpen = false
    this.pendingTexts.clear()
    this.persist()
    this.emit()
  }

  setText(questionId: number, text: string) {
    const key = String(questionId)
    if (!this.textsOpen || this.texts[key] === text) return
    this.texts = { ...this.texts, [key]: text }
    this.pendingTexts.add(key)
    this.persist()
    if (this.status === 'saved') this.status = 'saving'
    this.emit()
    this.kick(this.options.debounceMs)
  }

  /** Adds photos (already shrunk) at the end of the question's pages; each is kept on the device until sent. */
  async addPhotos(questionId: number, blobs: Blob[]) {
    const key = String(questionId)
    for (const blob of blobs) {
      const pageKey = randomKey()
      await this.options.pageStore.put(pageKey, { questionId, blob }).catch(() => undefined)
      const preview = this.options.previewOf(blob)
      if (preview) this.previews.set(pageKey, preview)
      // Kept in memory too: a browser without IndexedDB (a private window) still sends it this session.
      this.memoryBlobs.set(pageKey, blob)
      this.pages = { ...this.pages, [key]: [...(this.pages[key] ?? []), { key: pageKey, page: null, refusal: null }] }
    }
    this.persist()
    this.emit()
    this.kick(0)
  }

  private readonly memoryBlobs = new Map<string, Blob>()

  removePage(questionId: number, pageKey: string) {
    const key = String(questionId)
    const entry = this.pages[key]?.find((page) => page.key === pageKey)
    if (!entry || pageKey === this.sendingKey) return
    this.pages = { ...this.pages, [key]: this.pages[key]!.filter((page) => page.key !== pageKey) }
    if (entry.page) this.deletes.push({ questionId, pageId: entry.page.id })
    this.forgetPhoto(pageKey)
    this.persist()
    this.emit()
    this.kick(0)
  }

  /** Moves a page one place earlier (-1) or later (+1). */
  movePage(questionId: number, pageKey: string, step: -1 | 1) {
    const key = String(questionId)
    const list = [...(this.pages[key] ?? [])]
    const from = list.findIndex((page) => page.key === pageKey)
    const to = from + step
    if (from < 0 || to < 0 || to >= list.length) return
    const [moved] = list.splice(from, 1)
    list.splice(to, 0, moved!)
    this.pages = { ...this.pages, [key]: list }
    this.persist()
    this.emit()
    this.kick(this.options.debounceMs)
  }

  private forgetPhoto(pageKey: string) {
    this.memoryBlobs.delete(pageKey)
    void this.options.pageStore.remove(pageKey).catch(() => undefined)
  }

  hasPendingTexts() {
    return this.textsOpen && this.pendingTexts.size > 0
  }

  /**
   * Sends every text now and waits: true once the server holds them (or refused them for good), false when it
   * cannot get through now. The hand-in waits on this, since the server takes text only until then.
   */
  async drainTexts(): Promise<boolean> {
    // Not behind the photos: a text goes beside an upload in progress (the same text twice is harmless).
    if (!this.hasPendingTexts()) return true
    for (const key of [...this.pendingTexts]) {
      const text = this.texts[key] ?? ''
      try {
        await this.options.transport.putText(Number(key), text)
        if (this.texts[key] === text) this.pendingTexts.delete(key)
      } catch (error) {
        if (isTransient(error)) return false
        this.pendingTexts.delete(key)
      }
    }
    this.persist()
    this.emit()
    return true
  }

  /** Sends what waits, one request at a time, until nothing is left or it cannot get through. */
  flush(): Promise<void> {
    if (this.pumping) return this.pumping
    if (!this.running || !this.hasWork()) {
      if (!this.hasWork()) this.setStatus('saved')
      return Promise.resolve()
    }
    if (!this.options.connection.isOnline()) {
      this.setStatus('offline')
      return Promise.resolve()
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = null
    })
    return this.pumping
  }

  private async pump() {
    this.setStatus('saving')
    while (this.running && this.hasWork()) {
      try {
        await this.sendOne()
        this.failures = 0
      } catch (error) {
        this.sendingKey = null
        if (isTransient(error)) {
          this.failures += 1
          this.setStatus(this.options.connection.isOnline() ? 'retrying' : 'offline')
          const retryAfterMs = 1000 * ((error as { retryAfterSeconds?: number }).retryAfterSeconds ?? 0)
          this.kick(Math.max(retryAfterMs, this.options.retryDelayMs(this.failures)))
          return
        }
        // A refusal that will not change was recorded by sendOne's caller below; go on with the rest.
      }
      this.persist()
      this.emit()
    }
    this.setStatus('saved')
  }

  /** One request: a text, a deletion, a photo or an order, in that order of importance. */
  private async sendOne() {
    const { transport } = this.options
    const textKey = this.textsOpen ? [...this.pendingTexts][0] : undefined
    if (textKey !== undefined) {
      const text = this.texts[textKey] ?? ''
      try {
        await transport.putText(Number(textKey), text)
      } catch (error) {
        // Past the deadline the server takes no text: the submission carried the attempt, nothing more to do.
        if (!isTransient(error)) this.pendingTexts.delete(textKey)
        throw error
      }
      if (this.texts[textKey] === text) this.pendingTexts.delete(textKey)
      return
    }
    const deletion = this.deletes[0]
    if (deletion) {
      try {
        await transport.deletePage(deletion.questionId, deletion.pageId)
      } catch (error) {
        if (!isTransient(error)) this.dropDeletion(deletion, error)
        throw error
      }
      this.dropDeletion(deletion, null)
      return
    }
    for (const [questionId, list] of Object.entries(this.pages)) {
      const entry = list.find((page) => !page.page && !page.refusal)
      if (entry) return this.sendPhoto(Number(questionId), entry)
    }
    for (const questionId of Object.keys(this.pages)) {
      const order = this.orderToSend(questionId)
      if (!order) continue
      try {
        const { pages } = await transport.orderPages(Number(questionId), order)
        this.serverOrder[questionId] = pages.map((page) => page.id)
      } catch (error) {
        // Refused (a page deleted elsewhere): not asked again until the learner changes the order.
        if (!isTransient(error)) this.serverOrder[questionId] = order
        throw error
      }
      return
    }
  }

  private dropDeletion(deletion: { questionId: number; pageId: number }, error: unknown) {
    this.deletes = this.deletes.filter((entry) => entry !== deletion)
    const key = String(deletion.questionId)
    this.serverOrder[key] = (this.serverOrder[key] ?? []).filter((id) => id !== deletion.pageId)
    if (error instanceof ApiError && error.code === 'upload_closed') this.closeUploads()
  }

  private async sendPhoto(questionId: number, entry: StoredPage) {
    const blob = this.memoryBlobs.get(entry.key) ?? (await this.options.pageStore.get(entry.key))?.blob
    const key = String(questionId)
    if (!blob) {
      // The photo left the device (storage cleared): nothing to send.
      this.pages[key] = (this.pages[key] ?? []).filter((page) => page.key !== entry.key)
      return
    }
    this.sendingKey = entry.key
    this.emit()
    let page: WrittenPage
    try {
      page = await this.options.transport.uploadPage(questionId, blob)
    } catch (error) {
      if (!isTransient(error)) {
        const refusal = refusalOf(error) ?? 'other'
        this.sendingKey = null
        if (refusal === 'upload_closed') this.closeUploads()
        else this.refuse(key, entry.key, refusal)
      }
      throw error
    }
    this.sendingKey = null
    const current = this.pages[key]?.find((candidate) => candidate.key === entry.key)
    const order = this.serverOrder[key] ?? []
    if (!order.includes(page.id)) this.serverOrder[key] = [...order, page.id]
    // The same photo twice is one page on the server: the second entry goes.
    const duplicate = this.pages[key]?.some((candidate) => candidate.page?.id === page.id)
    if (!current || duplicate) {
      this.pages[key] = (this.pages[key] ?? []).filter((candidate) => candidate.key !== entry.key)
      if (!current && !duplicate) this.deletes.push({ questionId, pageId: page.id })
    } else {
      current.page = page
    }
    this.memoryBlobs.delete(entry.key)
    void this.options.pageStore.remove(entry.key).catch(() => undefined)
  }

  private refuse(questionId: string, pageKey: string, refusal: PageRefusal) {
    const entry = this.pages[questionId]?.find((page) => page.key === pageKey)
    if (entry) entry.refusal = refusal
    this.forgetPhoto(pageKey)
  }

  /** The grace is over: every page still waiting is lost, and nothing more is sent. */
  private closeUploads() {
    this.closed = true
    for (const [questionId, list] of Object.entries(this.pages)) {
      for (const entry of list) if (!entry.page && !entry.refusal) this.refuse(questionId, entry.key, 'upload_closed')
    }
    this.deletes = []
    this.persist()
  }

  /** Forgets the attempt's written answers on this device (the server has them, or will never take them). */
  clear() {
    this.pause()
    try {
      this.options.storage?.removeItem(this.options.storageKey)
    } catch {
      // Nothing to remove.
    }
    for (const list of Object.values(this.pages)) for (const entry of list) this.forgetPhoto(entry.key)
  }
}

/** The exam bar's one save status over the answers and the written answers: the worse of the two. */
export function combinedStatus<Status extends string>(answers: Status, written: WrittenSnapshot['status']): Status {
  const rank = ['saved', 'saving', 'retrying', 'offline', 'failed']
  return (rank.indexOf(written) > rank.indexOf(answers) ? written : answers) as Status
}

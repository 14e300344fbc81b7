import { onlineManager } from '@tanstack/react-query'
import type { SavedWrittenAnswer, WrittenPage } from '@quiz/contracts'
import { ApiError } from '../../../api/api-error'
import { backoffDelay, type Connection } from '../answer-queue'
import type { PageBlobStore } from './page-store'
import { HeldWrittenAnswers } from './written-held'
import type { WrittenSnapshot } from './written-snapshot'
import type { StoredPage } from './written-stored'
import { isTransient, refusalOf, type WrittenTransport } from './written-transport'

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

const DEFAULT_DEBOUNCE_MS = 1000

const randomKey = () => `p${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`

/**
 * A written answer's text and page photos for one attempt, and what the server has not got yet. Texts and the
 * pages' places are kept in localStorage, photos waiting to go in IndexedDB; everything goes one request at a time
 * (a phone on a bad connection sends one photo well rather than three badly), retried with backoff, and at once
 * when the connection returns. Pages keep going after the hand-in until the server says the upload grace is over.
 */
export class WrittenQueue extends HeldWrittenAnswers {
  private timer: ReturnType<typeof setTimeout> | null = null
  private pumping: Promise<void> | null = null
  private failures = 0
  private running = false
  private unsubscribe: (() => void) | null = null
  private readonly options: Required<Omit<WrittenQueueOptions, 'storage'>> & Pick<WrittenQueueOptions, 'storage'>

  constructor(options: WrittenQueueOptions) {
    const resolved = {
      storage: typeof localStorage === 'undefined' ? undefined : localStorage,
      connection: onlineManager,
      debounceMs: DEFAULT_DEBOUNCE_MS,
      retryDelayMs: backoffDelay,
      previewOf: (blob: Blob) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(blob) : null),
      ...options,
    }
    super(resolved)
    this.options = resolved
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

  private hasWork() {
    if (this.closed) return this.pendingTexts.size > 0 && this.textsOpen
    return (
      (this.textsOpen && this.pendingTexts.size > 0) ||
      this.deletes.length > 0 ||
      Object.values(this.pages).some((list) => list.some((entry) => !entry.page && !entry.refusal)) ||
      Object.keys(this.pages).some((id) => this.orderToSend(id) !== null)
    )
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
      this.memoryBlobs.set(pageKey, blob)
      this.pages = { ...this.pages, [key]: [...(this.pages[key] ?? []), { key: pageKey, page: null, refusal: null }] }
    }
    this.persist()
    this.emit()
    this.kick(0)
  }

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

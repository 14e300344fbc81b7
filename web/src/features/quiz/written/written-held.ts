import type { WrittenPage } from '@quiz/contracts'
import type { PageBlobStore } from './page-store'
import { mergedPages, orderToSend } from './page-order'
import { snapshotOf, type WrittenSnapshot } from './written-snapshot'
import { readStored, writeStored, type StoredPage } from './written-stored'
import type { PageRefusal } from './written-transport'

/** Where the answers are kept, and how a photo on the device is shown. */
export interface HeldOptions {
  storageKey: string
  storage?: Storage
  pageStore: PageBlobStore
  previewOf: (blob: Blob) => string | null
}

/**
 * What this device holds of an attempt's written answers: texts and the pages' places in memory and in
 * localStorage, photos waiting in IndexedDB, the server's copy folded in, and the snapshot the exam screen reads.
 * WrittenQueue (written-queue.ts) builds on it and decides what is sent, and when.
 */
export class HeldWrittenAnswers {
  protected texts: Record<string, string> = {}
  protected pendingTexts = new Set<string>()
  protected pages: Record<string, StoredPage[]> = {}
  protected serverOrder: Record<string, number[]> = {}
  protected deletes: { questionId: number; pageId: number }[] = []
  protected closed = false
  /** Keys of pages in flight, and previews made on this device. */
  protected sendingKey: string | null = null
  protected readonly previews = new Map<string, string>()
  /** Photos waiting, in memory too: a browser without IndexedDB (a private window) still sends them this session. */
  protected readonly memoryBlobs = new Map<string, Blob>()
  protected status: WrittenSnapshot['status'] = 'saved'
  protected textsOpen = true
  protected snapshot: WrittenSnapshot
  private readonly listeners = new Set<() => void>()
  /** Resolves once the photos kept on the device have been found (a reload). */
  readonly ready: Promise<void>
  /** This device held the attempt's written answers (a reload): they are at least as new as a copy of the attempt. */
  restored = false

  constructor(protected readonly kept: HeldOptions) {
    this.load()
    this.snapshot = this.makeSnapshot()
    this.ready = this.restorePhotos()
  }

  private load() {
    try {
      const stored = readStored(this.kept.storage, this.kept.storageKey)
      if (!stored) return
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

  protected persist() {
    writeStored(this.kept.storage, this.kept.storageKey, {
      texts: this.texts,
      pendingTexts: [...this.pendingTexts],
      pages: this.pages,
      serverOrder: this.serverOrder,
      deletes: this.deletes,
      closed: this.closed,
      handedIn: !this.textsOpen,
    })
  }

  /** Previews for photos kept on the device; a queued page whose photo is gone (storage cleared) is dropped. */
  private async restorePhotos() {
    // Most attempts have no photo waiting: IndexedDB is not even opened for them.
    if (!this.hasWaitingPhotos()) return
    let kept: Set<string>
    try {
      kept = new Set(await this.kept.pageStore.keys())
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
      const blob = await this.kept.pageStore.get(entry.key).catch(() => undefined)
      const preview = blob ? this.kept.previewOf(blob.blob) : null
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

  protected mergePages(questionId: string, serverPages: readonly WrittenPage[]) {
    const deleting = new Set(
      this.deletes.filter((entry) => String(entry.questionId) === questionId).map((entry) => entry.pageId),
    )
    const local = this.pages[questionId] ?? []
    const pages = mergedPages(local, serverPages, deleting, this.serverOrder[questionId] ?? [])
    this.pages = { ...this.pages, [questionId]: pages }
    this.serverOrder = { ...this.serverOrder, [questionId]: serverPages.map((page) => page.id) }
  }

  private makeSnapshot(): WrittenSnapshot {
    return snapshotOf({
      texts: this.texts,
      pages: this.pages,
      textsLeft: this.pendingTexts.size,
      previews: this.previews,
      sendingKey: this.sendingKey,
      status: this.status,
      closed: this.closed,
    })
  }

  protected emit() {
    this.snapshot = this.makeSnapshot()
    for (const listener of this.listeners) listener()
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  getSnapshot = () => this.snapshot

  /** The order to send for a question once all its photos are on the server and it differs from the server's. */
  protected orderToSend(questionId: string): number[] | null {
    return orderToSend(this.pages[questionId] ?? [], this.serverOrder[questionId] ?? [])
  }

  get handedIn() {
    return !this.textsOpen
  }

  protected forgetPhoto(pageKey: string) {
    this.memoryBlobs.delete(pageKey)
    void this.kept.pageStore.remove(pageKey).catch(() => undefined)
  }

  hasPendingTexts() {
    return this.textsOpen && this.pendingTexts.size > 0
  }

  protected refuse(questionId: string, pageKey: string, refusal: PageRefusal) {
    const entry = this.pages[questionId]?.find((page) => page.key === pageKey)
    if (entry) entry.refusal = refusal
    this.forgetPhoto(pageKey)
  }

  /** The grace is over: every page still waiting is lost, and nothing more is sent. */
  protected closeUploads() {
    this.closed = true
    for (const [questionId, list] of Object.entries(this.pages)) {
      for (const entry of list) if (!entry.page && !entry.refusal) this.refuse(questionId, entry.key, 'upload_closed')
    }
    this.deletes = []
    this.persist()
  }
}

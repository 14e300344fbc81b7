import type { WrittenPage } from '@quiz/contracts'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../api/api-error'
import { countWords } from './word-count'
import { writtenAttemptsHandedIn } from './handed-in'
import { indexedDbPageStore, type PageBlobStore } from './page-store'
import { WrittenQueue } from './written-queue'
import { combinedStatus } from './written-snapshot'
import { writtenStorageKey } from './written-stored'
import { makeWrittenQueue } from './use-written-queue'
import { fakeWrittenServer as fakeTransport, memoryPageStore } from './written-fakes.test-utils'

const KEY = writtenStorageKey(42)
const networkError = () => new ApiError(0, 'network_error', 'Failed to fetch')

function connection() {
  let online = true
  const listeners = new Set<(online: boolean) => void>()
  return {
    isOnline: () => online,
    subscribe: (listener: (online: boolean) => void) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    set(value: boolean) {
      online = value
      for (const listener of listeners) listener(value)
    },
  }
}

function setup(server = fakeTransport(), pageStore: PageBlobStore = memoryPageStore(), link = connection()) {
  const queue = new WrittenQueue({
    storageKey: KEY,
    transport: server.transport,
    pageStore,
    connection: link,
    debounceMs: 500,
    previewOf: () => 'blob:preview',
  })
  queue.start()
  return { queue, server, pageStore, link }
}

const photo = (name: string) => new Blob([name], { type: 'image/jpeg' })

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('countWords', () => {
  it('counts Nepali and English words as the server does: runs between whitespace, the danda with its word', () => {
    expect(countWords('')).toBe(0)
    expect(countWords('  \n ')).toBe(0)
    expect(countWords('नेपालको संविधान २०७२ जारी भयो। It is federal.')).toBe(8)
    expect(countWords('एक\u00a0दुई\nतीन')).toBe(3)
  })
})

describe('WrittenQueue', () => {
  it('saves the text after a pause, counts its words and counts the question answered', async () => {
    const { queue, server } = setup()
    await vi.runAllTimersAsync()
    queue.setText(5, 'लोकसेवा आयोग')
    queue.setText(5, 'लोकसेवा आयोगको काम')
    expect(queue.getSnapshot().answers['5']).toMatchObject({ text: 'लोकसेवा आयोगको काम', words: 3 })
    expect(queue.getSnapshot().answered).toEqual({ '5': true })
    expect(queue.getSnapshot().textsLeft).toBe(1)
    await vi.advanceTimersByTimeAsync(600)
    expect(server.transport.putText).toHaveBeenCalledTimes(1)
    expect(server.texts.get(5)).toBe('लोकसेवा आयोगको काम')
    expect(queue.getSnapshot()).toMatchObject({ textsLeft: 0, status: 'saved' })
  })

  it('keeps photos taken offline, through a reload, and sends them in order once the connection returns', async () => {
    const server = fakeTransport()
    const pageStore = memoryPageStore()
    const link = connection()
    link.set(false)
    const first = setup(server, pageStore, link)
    const [a, b, c] = [photo('a'), photo('b'), photo('c')]
    await first.queue.addPhotos(7, [a, b, c])
    await vi.runAllTimersAsync()
    expect(first.queue.getSnapshot()).toMatchObject({ pagesLeft: 3, status: 'offline', answered: { '7': true } })
    expect(server.transport.uploadPage).not.toHaveBeenCalled()
    first.queue.pause()

    // A reload: a new queue over the same storage finds the three photos.
    const second = setup(server, pageStore, link)
    await second.queue.ready
    expect(second.queue.getSnapshot().answers['7']!.pages.map((page) => page.status)).toEqual([
      'queued',
      'queued',
      'queued',
    ])
    link.set(true)
    await vi.runAllTimersAsync()
    expect(server.photoOrder(7)).toEqual([a, b, c])
    expect(second.queue.getSnapshot().pagesLeft).toBe(0)
    expect(pageStore.held.size).toBe(0)
  })

  it('retries a photo whose upload the connection dropped, with backoff', async () => {
    const { queue, server } = setup()
    server.failWith(networkError)
    await queue.addPhotos(7, [photo('a')])
    await vi.advanceTimersByTimeAsync(10)
    expect(queue.getSnapshot().status).toBe('retrying')
    server.failWith(null)
    await vi.advanceTimersByTimeAsync(1500)
    expect(queue.getSnapshot()).toMatchObject({ pagesLeft: 0, status: 'saved' })
    expect(server.transport.uploadPage).toHaveBeenCalledTimes(2)
  })

  it('sends a new order once every page is on the server, and deletes a removed page', async () => {
    const { queue, server } = setup()
    const [a, b, c] = [photo('a'), photo('b'), photo('c')]
    await queue.addPhotos(7, [a, b, c])
    await vi.runAllTimersAsync()
    const keys = queue.getSnapshot().answers['7']!.pages.map((page) => page.key)
    queue.movePage(7, keys[2]!, -1)
    queue.movePage(7, keys[2]!, -1)
    await vi.runAllTimersAsync()
    expect(server.transport.orderPages).toHaveBeenCalledTimes(1)
    expect(server.photoOrder(7)).toEqual([c, a, b])
    queue.removePage(7, keys[0]!)
    await vi.runAllTimersAsync()
    expect(server.photoOrder(7)).toEqual([c, b])
    expect(server.transport.orderPages).toHaveBeenCalledTimes(1)
  })

  it('says why the server refused a photo, and goes on with the rest', async () => {
    const { queue, server } = setup()
    server.failWith(() => new ApiError(413, 'payload_too_large', 'The photo is too large: at most 15 MB.'))
    await queue.addPhotos(7, [photo('big')])
    await vi.runAllTimersAsync()
    server.failWith(() => new ApiError(409, 'too_many_pages', 'A question takes at most 12 pages.'))
    await queue.addPhotos(7, [photo('thirteenth')])
    await vi.runAllTimersAsync()
    server.failWith(null)
    await queue.addPhotos(7, [photo('fine')])
    await vi.runAllTimersAsync()
    const pages = queue.getSnapshot().answers['7']!.pages
    expect(pages.map((page) => [page.status, page.refusal])).toEqual([
      ['refused', 'too_large'],
      ['refused', 'too_many_pages'],
      ['sent', null],
    ])
  })

  it('after the upload grace, counts the pages that did not arrive and sends nothing more', async () => {
    const { queue, server } = setup()
    queue.closeTexts()
    server.failWith(() => new ApiError(409, 'upload_closed', 'This attempt no longer accepts answers.'))
    await queue.addPhotos(7, [photo('a'), photo('b')])
    await vi.runAllTimersAsync()
    expect(queue.getSnapshot().closed).toEqual({ lost: 2 })
    expect(queue.getSnapshot().pagesLeft).toBe(0)
    expect(server.transport.uploadPage).toHaveBeenCalledTimes(1)
  })

  it('drains the texts before the hand-in, and says when it cannot', async () => {
    const { queue, server, link } = setup()
    queue.setText(5, 'answer')
    server.failWith(networkError)
    expect(await queue.drainTexts()).toBe(false)
    server.failWith(null)
    link.set(true)
    expect(await queue.drainTexts()).toBe(true)
    expect(server.texts.get(5)).toBe('answer')
    queue.closeTexts()
    queue.setText(5, 'too late')
    expect(queue.getSnapshot().textsLeft).toBe(0)
  })

  it('after the hand-in, finishes sending in the background, found again after a reload, then forgets the attempt', async () => {
    const server = fakeTransport()
    const pageStore = memoryPageStore()
    const link = connection()
    link.set(false)
    const first = setup(server, pageStore, link)
    await first.queue.addPhotos(7, [photo('a')])
    first.queue.closeTexts()
    first.queue.pause()
    // A reload: the app finds the handed-in attempt with a photo waiting.
    expect(writtenAttemptsHandedIn(localStorage)).toEqual([42])
    const second = setup(server, pageStore, link)
    second.queue.pause()
    expect(second.queue.handedIn).toBe(true)
    second.queue.finishInBackground()
    link.set(true)
    await vi.runAllTimersAsync()
    expect(server.photoOrder(7)).toHaveLength(1)
    expect(localStorage.getItem(KEY)).toBeNull()
    expect(writtenAttemptsHandedIn(localStorage)).toEqual([])
  })

  it('sends a text before the hand-in without waiting for a photo still on its way', async () => {
    const server = fakeTransport()
    let arrive!: () => void
    server.transport.uploadPage = vi.fn(
      () => new Promise<never>((_, reject) => (arrive = () => reject(networkError()))),
    )
    const { queue } = setup(server)
    await queue.addPhotos(7, [photo('slow')])
    await vi.advanceTimersByTimeAsync(10)
    expect(queue.getSnapshot().answers['7']!.pages[0]!.status).toBe('sending')
    queue.setText(5, 'typed while the photo goes')
    expect(await queue.drainTexts()).toBe(true)
    expect(server.texts.get(5)).toBe('typed while the photo goes')
    arrive()
  })

  it('keeps queued photos in IndexedDB', async () => {
    vi.useRealTimers()
    const store = indexedDbPageStore(9)
    const blob = photo('kept')
    await store.put('p1', { questionId: 3, blob })
    expect(await store.keys()).toEqual(['p1'])
    expect((await store.get('p1'))?.questionId).toBe(3)
    await store.remove('p1')
    expect(await store.keys()).toEqual([])
  })
})

describe('WrittenQueue.mergeServer: the answer another device left on the server', () => {
  const saved = (text: string, pages: WrittenPage[] = []) => ({ text, word_count: countWords(text), pages })
  const shown = (queue: WrittenQueue, questionId: number) =>
    queue.getSnapshot().answers[String(questionId)]!.pages.map((page) => [page.status, page.page?.id ?? null])

  it('starts a device that holds nothing from the server: text, words, pages sent, and counts them answered', async () => {
    const server = fakeTransport()
    const laptop = setup(server)
    await laptop.queue.addPhotos(7, [photo('a'), photo('b')])
    await vi.runAllTimersAsync()
    const pages = laptop.queue.getSnapshot().answers['7']!.pages.map((page) => page.page!)
    laptop.queue.pause()
    localStorage.clear()

    const phone = setup(server)
    phone.queue.mergeServer({ '5': saved('टाइप गरिएको उत्तर typed'), '7': saved('', pages) })
    await vi.runAllTimersAsync()
    expect(phone.queue.getSnapshot().answers['5']).toMatchObject({ text: 'टाइप गरिएको उत्तर typed', words: 4 })
    expect(shown(phone.queue, 7)).toEqual([
      ['sent', pages[0]!.id],
      ['sent', pages[1]!.id],
    ])
    expect(phone.queue.getSnapshot().answers['7']!.pages[0]!.preview).toBe(pages[0]!.phone_url)
    expect(phone.queue.getSnapshot()).toMatchObject({ answered: { '5': true, '7': true }, pagesLeft: 0 })
    // Nothing to send: it is all on the server already.
    expect(server.transport.putText).not.toHaveBeenCalled()
    expect(server.transport.orderPages).not.toHaveBeenCalled()
    expect(server.transport.uploadPage).toHaveBeenCalledTimes(2)
  })

  it("takes the server's text, pages and order where this device has sent everything", async () => {
    const { queue, server } = setup()
    queue.setText(5, 'first draft')
    const [a, b, c] = [photo('a'), photo('b'), photo('c')]
    await queue.addPhotos(7, [a, b, c])
    await vi.runAllTimersAsync()
    const [, pb, pc] = queue.getSnapshot().answers['7']!.pages.map((page) => page.page!) as [
      WrittenPage,
      WrittenPage,
      WrittenPage,
    ]
    // Meanwhile on the laptop: the text rewritten, page a deleted, c put first, and a page added.
    const laptopPage = await server.transport.uploadPage(7, photo('laptop'))
    const calls = vi.mocked(server.transport.putText).mock.calls.length
    queue.mergeServer({ '5': saved('rewritten on the laptop'), '7': saved('', [pc, pb, laptopPage]) })
    await vi.runAllTimersAsync()
    expect(queue.getSnapshot().answers['5']!.text).toBe('rewritten on the laptop')
    expect(shown(queue, 7)).toEqual([
      ['sent', pc.id],
      ['sent', pb.id],
      ['sent', laptopPage.id],
    ])
    expect(vi.mocked(server.transport.putText).mock.calls.length).toBe(calls)
    expect(server.transport.orderPages).not.toHaveBeenCalled()
    expect(server.transport.deletePage).not.toHaveBeenCalled()
  })

  it('keeps what this device has not sent: its text, its photos, its page order and its deletions win', async () => {
    const { queue, server, link } = setup()
    const [a, b, c, d] = [photo('a'), photo('b'), photo('c'), photo('d')]
    await queue.addPhotos(7, [a, b, c])
    await queue.addPhotos(8, [d])
    await vi.runAllTimersAsync()
    const [pa, pb, pc] = queue.getSnapshot().answers['7']!.pages.map((page) => page.page!) as [
      WrittenPage,
      WrittenPage,
      WrittenPage,
    ]
    const pd = queue.getSnapshot().answers['8']!.pages[0]!.page!
    // Offline on this device: typed, moved c first, deleted b, photographed e; on question 8, deleted d.
    link.set(false)
    queue.setText(5, 'typed offline here')
    const keys = queue.getSnapshot().answers['7']!.pages.map((page) => page.key)
    queue.movePage(7, keys[2]!, -1)
    queue.movePage(7, keys[2]!, -1)
    queue.removePage(7, keys[1]!)
    const e = photo('e')
    await queue.addPhotos(7, [e])
    queue.removePage(8, queue.getSnapshot().answers['8']!.pages[0]!.key)
    // The laptop wrote text and added a page meanwhile: the server still has a, b, c in their first order, and d.
    const laptop = photo('laptop')
    const laptopPage = await server.transport.uploadPage(7, laptop)
    queue.mergeServer({
      '5': saved('older text from the laptop'),
      '7': saved('', [pa, pb, pc, laptopPage]),
      '8': saved('', [pd]),
    })
    expect(queue.getSnapshot().answers['5']!.text).toBe('typed offline here')
    expect(shown(queue, 7)).toEqual([
      ['sent', pc.id],
      ['sent', pa.id],
      ['queued', null],
      ['sent', laptopPage.id],
    ])
    expect(shown(queue, 8)).toEqual([])

    link.set(true)
    await vi.runAllTimersAsync()
    expect(server.texts.get(5)).toBe('typed offline here')
    expect(server.photoOrder(7)).toEqual([c, a, e, laptop])
    expect(server.photoOrder(8)).toEqual([])
    expect(server.transport.deletePage).toHaveBeenCalledTimes(2)
  })

  it("puts photos still to send after the server's pages when this device has no order of its own", async () => {
    const { queue, link } = setup()
    link.set(false)
    await queue.addPhotos(7, [photo('queued')])
    const other = {
      id: 500,
      number: 1,
      url: '/api/written-pages/500/?expires=1&signature=s',
      phone_url: '/api/written-pages/500/?expires=1&signature=s&size=phone',
      width: 8,
      height: 9,
    }
    queue.mergeServer({ '7': saved('', [other]) })
    expect(shown(queue, 7)).toEqual([
      ['sent', 500],
      ['queued', null],
    ])
  })
})

describe('makeWrittenQueue: the attempt as opened', () => {
  const fromServer = { '5': { text: 'on the server', word_count: 3, pages: [] } }

  it("folds in the server's answers, and a copy kept on this device only when the queue holds nothing", () => {
    expect(makeWrittenQueue(42, { saved: fromServer, fromDevice: false }).getSnapshot().answers['5']!.text).toBe(
      'on the server',
    )
    localStorage.clear()
    expect(makeWrittenQueue(42, { saved: fromServer, fromDevice: true }).getSnapshot().answers['5']!.text).toBe(
      'on the server',
    )
    // This device typed since its copy of the attempt was kept: its own entry stands, sent or not.
    localStorage.setItem(KEY, JSON.stringify({ texts: { '5': 'typed here since' }, pendingTexts: [] }))
    expect(makeWrittenQueue(42, { saved: fromServer, fromDevice: true }).getSnapshot().answers['5']!.text).toBe(
      'typed here since',
    )
    expect(makeWrittenQueue(42, { saved: fromServer, fromDevice: false }).getSnapshot().answers['5']!.text).toBe(
      'on the server',
    )
  })
})

describe('combinedStatus', () => {
  it('shows the worse of the answers and the written answers', () => {
    expect(combinedStatus('saved', 'offline')).toBe('offline')
    expect(combinedStatus('failed', 'saving')).toBe('failed')
    expect(combinedStatus('saved', 'saved')).toBe('saved')
  })
})

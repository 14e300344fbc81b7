import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { patterns } from '../../../lib/paths'
import { fakeNetwork, page, renderRoutes, signInAs } from '../../../test/page-test-utils'
import { Component as ScanPage } from './scan-page'
import { UPLOAD_CONCURRENCY } from './scan-uploads'
import { axeViolations } from '../../../test/axe'
import {
  bookletLayout,
  flaggedScan,
  recordedPage,
  recordedScan,
  sitting,
  unclearPage,
  unknownPage,
} from './sitting-fixtures'

vi.setConfig({ testTimeout: 20_000 })

beforeEach(() => signInAs({ username: 'boss', is_admin: true }))
afterEach(() => vi.unstubAllGlobals())

const routes = [page(ScanPage, patterns.adminSittingScan)]
const photo = (name: string) => new File([new Uint8Array([0xff, 0xd8, 0xff])], name, { type: 'image/jpeg' })

describe('scanning sheets', () => {
  it('says so when the page has no camera, and offers the upload', async () => {
    fakeNetwork({ 'GET /api/admin/sittings/9/': () => ({ body: sitting }) })
    renderRoutes(routes, { path: '/admin/sittings/9/scan' })
    expect(await screen.findByText('2 of 3 sheets scanned.')).toBeInTheDocument()
    expect(screen.getByText('This device has no camera the page can use. Use Upload photos below.')).toBeInTheDocument()
    expect(screen.getByLabelText('Photos of answer sheets or booklet pages (many at once)')).toHaveAttribute('multiple')
  })

  it('says how to allow a refused camera, in Nepali too', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      mediaDevices: { getUserMedia: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
    })
    fakeNetwork({ 'GET /api/admin/sittings/9/': () => ({ body: sitting }) })
    renderRoutes(routes, { path: '/admin/sittings/9/scan', language: 'ne' })
    expect(await screen.findByText(/यो साइटलाई क्यामेरा प्रयोग गर्न अनुमति छैन।/)).toBeInTheDocument()
  })

  it('opens the rear camera with a frame guide and a shutter', async () => {
    const getUserMedia = vi.fn(() => new Promise<MediaStream>(() => undefined))
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } })
    fakeNetwork({ 'GET /api/admin/sittings/9/': () => ({ body: sitting }) })
    renderRoutes(routes, { path: '/admin/sittings/9/scan' })
    expect(await screen.findByRole('button', { name: 'Take photo' })).toBeDisabled()
    expect(getUserMedia).toHaveBeenCalledWith(
      expect.objectContaining({ video: expect.objectContaining({ facingMode: 'environment' }) }),
    )
  })

  it('asks for the camera as its sensor sees it, and shapes the viewfinder and its guide as the frame sent', async () => {
    const track = { getSettings: () => ({ width: 3024, height: 4032 }), stop: vi.fn() }
    const stream = { getTracks: () => [track], getVideoTracks: () => [track] }
    const getUserMedia = vi.fn(async () => stream as unknown as MediaStream)
    const getSupportedConstraints = () => ({ resizeMode: true })
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia, getSupportedConstraints } })
    fakeNetwork({ 'GET /api/admin/sittings/9/': () => ({ body: sitting }) })
    const { container } = renderRoutes(routes, { path: '/admin/sittings/9/scan' })
    await waitFor(() => expect(screen.getByRole('button', { name: 'Take photo' })).toBeEnabled())
    expect(getUserMedia).toHaveBeenCalledWith({
      audio: false,
      video: { facingMode: 'environment', width: { ideal: 4096 }, height: { ideal: 4096 }, resizeMode: 'none' },
    })
    const viewfinder = container.querySelector<HTMLElement>('.scan-viewfinder')!
    expect(viewfinder.style.getPropertyValue('--frame-shape')).toBe('3024 / 4032')
    expect(viewfinder.style.getPropertyValue('--frame-ratio')).toBe('0.75')
  })

  it('asks only for a width where the browser cannot keep the sensor uncropped', async () => {
    const getUserMedia = vi.fn(() => new Promise<MediaStream>(() => undefined))
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia, getSupportedConstraints: () => ({}) } })
    fakeNetwork({ 'GET /api/admin/sittings/9/': () => ({ body: sitting }) })
    renderRoutes(routes, { path: '/admin/sittings/9/scan' })
    await screen.findByRole('button', { name: 'Take photo' })
    expect(getUserMedia).toHaveBeenCalledWith({
      audio: false,
      video: { facingMode: 'environment', width: { ideal: 4032 } },
    })
  })

  it("sends many photos a few at a time and lists each one's outcome; an already recorded sheet can be replaced", async () => {
    let inFlight = 0
    let most = 0
    const answers: Record<string, { status: number; body: unknown }> = {
      'a.jpg': { status: 201, body: { ...recordedScan, kind: 'sheet' } },
      'b.jpg': { status: 201, body: { ...flaggedScan, kind: 'sheet' } },
      'c.jpg': {
        status: 422,
        body: { code: 'sheet_unreadable', detail: 'All four corner squares must be in the photo.' },
      },
      'd.jpg': { status: 409, body: { code: 'sheet_already_scanned', detail: 'Already recorded.', scan_id: 70 } },
      'e.jpg': { status: 201, body: { ...recordedScan, kind: 'sheet' } },
    }
    const network = fakeNetwork({
      'GET /api/admin/sittings/9/': () => ({ body: sitting }),
      'POST /api/admin/sittings/9/pages/': async ({ body }) => {
        const fields = body as { image: File; replace?: string }
        inFlight += 1
        most = Math.max(most, inFlight)
        await new Promise((resolve) => setTimeout(resolve, 30))
        inFlight -= 1
        if (fields.replace === 'true') return { status: 201, body: { ...recordedScan, kind: 'sheet', score: 1.6 } }
        return answers[fields.image.name]!
      },
    })
    renderRoutes(routes, { path: '/admin/sittings/9/scan' })
    const input = await screen.findByLabelText('Photos of answer sheets or booklet pages (many at once)')
    await userEvent.upload(input, ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg', 'e.jpg'].map(photo))
    expect(await screen.findByText('5 of 5 photos read.')).toBeInTheDocument()
    expect(most).toBeLessThanOrEqual(UPLOAD_CONCURRENCY)
    expect(most).toBeGreaterThan(1)

    const item = (name: string) => screen.getByText(name).closest('li')!
    expect(item('a.jpg')).toHaveTextContent('RecordedSita SharmaRoll 1, set A · Score 2')
    expect(item('b.jpg')).toHaveTextContent('Needs review')
    expect(item('b.jpg')).toHaveTextContent('Question 1: more than one bubble filled (A, C).')
    expect(item('c.jpg')).toHaveTextContent('All four corner squares must be in the photo. Take the photo again.')
    expect(item('d.jpg')).toHaveTextContent('This sheet is already recorded.')
    expect(within(item('a.jpg')).queryByRole('button')).not.toBeInTheDocument()

    await userEvent.click(within(item('d.jpg')).getByRole('button', { name: 'Replace the recorded sheet' }))
    await waitFor(() => expect(item('d.jpg')).toHaveTextContent('Score 1.6'))
    const sent = network.callsTo('POST', '/api/admin/sittings/9/pages/')
    expect(sent).toHaveLength(6)
    expect((sent[5]!.body as { replace?: string }).replace).toBe('true')
  })
})

describe('scanning written-answer booklet pages', () => {
  it('sends a booklet page to the same place as the sheets and shows its learner, page and questions, or its flags', async () => {
    const answers: Record<string, { status: number; body: unknown }> = {
      'sheet.jpg': { status: 201, body: { ...recordedScan, kind: 'sheet' } },
      'page.jpg': { status: 201, body: recordedPage },
      'unclear.jpg': { status: 201, body: unclearPage },
      'spare.jpg': { status: 201, body: unknownPage },
      'again.jpg': {
        status: 409,
        body: { code: 'page_already_scanned', detail: 'This booklet page is already recorded.', page_id: 80 },
      },
      'dark.jpg': {
        status: 422,
        body: { code: 'page_unreadable', detail: 'The photo is too dark: turn on a light or move to a window.' },
      },
    }
    const network = fakeNetwork({
      'GET /api/admin/sittings/9/': () => ({ body: sitting }),
      'GET /api/admin/sittings/9/booklet-layout/': () => ({ body: bookletLayout }),
      'GET /api/admin/sittings/9/pages/': () => ({ body: { count: 2, results: [unclearPage, unknownPage] } }),
      'POST /api/admin/sittings/9/pages/': ({ body }) => {
        const fields = body as { image: File; replace?: string }
        if (fields.replace === 'true') return { status: 201, body: { ...recordedPage, questions: [3] } }
        return answers[fields.image.name]!
      },
    })
    const view = renderRoutes(routes, { path: '/admin/sittings/9/scan' })
    const input = await screen.findByLabelText('Photos of answer sheets or booklet pages (many at once)')
    await userEvent.upload(input, Object.keys(answers).map(photo))
    expect(await screen.findByText('6 of 6 photos read.')).toBeInTheDocument()
    // The flagged sheet and the two flagged pages wait in Review.
    expect(await screen.findByRole('link', { name: '3 to review' })).toHaveAttribute('href', '/admin/sittings/9/review')
    expect(screen.getByText(/2 of 3 sheets scanned\. 0 booklet pages recorded\./)).toBeInTheDocument()
    const item = (name: string) => screen.getByText(name).closest('li')!
    expect(item('sheet.jpg')).toHaveTextContent('RecordedSita SharmaRoll 1, set A · Score 2')
    expect(item('page.jpg')).toHaveTextContent('Booklet page recordedSita SharmaRoll 1 · page 2 · questions 3, 4')
    expect(item('unclear.jpg')).toHaveTextContent('Booklet page needs reviewRam ThapaRoll 2 · page 1')
    expect(item('unclear.jpg')).toHaveTextContent(
      'The question-number bubbles are unclear (4): choose the question(s) the page answers.',
    )
    expect(item('spare.jpg')).toHaveTextContent('Unknown learnerRoll ? · spare page')
    expect(item('spare.jpg')).toHaveTextContent('Choose the learner: the roll number could not be read')
    expect(item('dark.jpg')).toHaveTextContent('The photo is too dark: turn on a light or move to a window.')
    expect(item('again.jpg')).toHaveTextContent('This booklet page is already recorded.')
    expect(await axeViolations(view.container)).toEqual([])

    await userEvent.click(within(item('again.jpg')).getByRole('button', { name: 'Replace the recorded sheet' }))
    await waitFor(() => expect(item('again.jpg')).toHaveTextContent('Roll 1 · page 2 · question 3'))
    const sent = network.callsTo('POST', '/api/admin/sittings/9/pages/')
    expect(sent).toHaveLength(7)
    expect((sent[6]!.body as { replace?: string }).replace).toBe('true')
  })

  it("shows a page's outcome in Nepali", async () => {
    fakeNetwork({
      'GET /api/admin/sittings/9/': () => ({ body: sitting }),
      'POST /api/admin/sittings/9/pages/': () => ({ status: 201, body: recordedPage }),
    })
    renderRoutes(routes, { path: '/admin/sittings/9/scan', language: 'ne' })
    const input = await screen.findByLabelText('उत्तरपुस्तिका वा लिखित पुस्तिकाका पानाका फोटोहरू (एकैपटक धेरै)')
    await userEvent.upload(input, [photo('page.jpg')])
    expect(await screen.findByText('पुस्तिकाको पाना रेकर्ड भयो')).toBeInTheDocument()
    expect(screen.getByText('रोल १ · पाना २ · प्रश्न ३, ४')).toBeInTheDocument()
  })

  it("says a refused photo's cause in Nepali, each cause its own sentence (issue 79)", async () => {
    fakeNetwork({
      'GET /api/admin/sittings/9/': () => ({ body: sitting }),
      'POST /api/admin/sittings/9/pages/': (request) => {
        const refusal = (request.body as { image: File }).image.name === 'curled.jpg' ? 'not_flat' : 'blurred'
        return { status: 422, body: { code: 'sheet_unreadable', detail: 'English sentence.', refusal } }
      },
    })
    renderRoutes(routes, { path: '/admin/sittings/9/scan', language: 'ne' })
    const input = await screen.findByLabelText('उत्तरपुस्तिका वा लिखित पुस्तिकाका पानाका फोटोहरू (एकैपटक धेरै)')
    await userEvent.upload(input, [photo('curled.jpg'), photo('shaken.jpg')])
    expect(
      await screen.findByText(/पानालाई समतल राख्नुहोस्: यो पट्याइएको वा मुडिएको छ, वा फोन धेरै नजिक छ।/),
    ).toBeInTheDocument()
    expect(await screen.findByText(/फोटो धेरै धमिलो छ। फेरि फोटो खिच्नुहोस्।/)).toBeInTheDocument()
    expect(screen.queryByText(/English sentence/)).toBeNull()
  })
})

import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes, signInAs } from '../../../test/page-test-utils'
import { Component as PlatformBankPage } from './platform-bank-page'
import { question, row } from './platform-bank.fixtures'
import { UpdateAvailable } from './update-from-source'

vi.setConfig({ testTimeout: 20_000 })
configure({ asyncUtilTimeout: 4000 })

const LIST = 'GET /api/admin/platform-bank/questions/'

beforeEach(() => signInAs({ username: 'boss', is_admin: true }))
afterEach(() => vi.unstubAllGlobals())

describe('the platform bank of an institute admin', () => {
  it('lists the platform questions, previews one with its right answer and copies it into the bank', async () => {
    const net = fakeNetwork({
      [LIST]: () => ({
        body: { count: 2, results: [row(7, 'What is the SI unit of force?'), row(8, 'Speed of light')] },
      }),
      'GET /api/admin/platform-bank/questions/7/': () => ({ body: question(7) }),
      'POST /api/admin/platform-bank/questions/7/copy/': () => ({
        status: 201,
        body: { ...question(41), copied_from: { platform_question_id: 7, revision: 1 } },
      }),
      'GET /api/admin/key-challenges/': () => ({ body: { count: 0, results: [] } }),
    })
    renderRoutes([page(PlatformBankPage, '/admin/platform-bank')], { path: '/admin/platform-bank' })
    expect(await screen.findByRole('heading', { name: 'Platform bank', level: 1 })).toBeInTheDocument()
    expect(await screen.findByText('2 questions')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Preview question 7' }))
    const options = await screen.findByRole('list', { name: 'Options' })
    expect(within(options).getByText('(right answer)').closest('li')).toHaveTextContent('Newton')
    await userEvent.click(screen.getByRole('button', { name: 'Copy question 7 to my bank' }))
    expect(await screen.findByText('Question 7 copied to your bank as question 41.')).toBeInTheDocument()
    expect(net.callsTo('POST', '/api/admin/platform-bank/questions/7/copy/')).toHaveLength(1)
    expect(net.callsTo('POST', '/api/admin/platform-bank/questions/8/copy/')).toHaveLength(0)
  })

  it('searches, and says when a copy fails', async () => {
    const net = fakeNetwork({
      [LIST]: () => ({ body: { count: 1, results: [row(9, 'Ohm')] } }),
      'POST /api/admin/platform-bank/questions/9/copy/': () => ({ status: 404, body: { detail: 'Not found.' } }),
      'GET /api/admin/key-challenges/': () => ({ body: { count: 0, results: [] } }),
    })
    renderRoutes([page(PlatformBankPage, '/p')], { path: '/p' })
    await screen.findByText('Ohm')
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search the platform bank' }), 'ohm')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() =>
      expect(net.fetchMock.mock.calls.map(([url]) => String(url)).some((url) => url.includes('search=ohm'))).toBe(true),
    )
    await userEvent.click(screen.getByRole('button', { name: 'Copy question 9 to my bank' }))
    expect(await screen.findByText('The question was not copied. Try again.')).toBeInTheDocument()
  })

  it('is in Nepali with Devanagari digits', async () => {
    fakeNetwork({
      [LIST]: () => ({ body: { count: 12, results: [row(12, 'Ohm')] } }),
      'GET /api/admin/key-challenges/': () => ({ body: { count: 0, results: [] } }),
    })
    renderRoutes([page(PlatformBankPage, '/p')], { path: '/p', language: 'ne' })
    expect(await screen.findByRole('heading', { name: 'प्लेटफर्म बैंक', level: 1 })).toBeInTheDocument()
    expect(await screen.findByText('१२ प्रश्न')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'प्रश्न १२ मेरो बैंकमा प्रतिलिपि गर्नुहोस्' })).toBeInTheDocument()
  })
})

describe('"Update available" on a copied question', () => {
  it('takes the platform revision', async () => {
    const net = fakeNetwork({
      'POST /api/admin/bank/questions/41/update-from-source/': () => ({ body: question(41) }),
    })
    renderRoutes([page(() => <UpdateAvailable id={41} />, '/b')], { path: '/b', language: 'en' })
    expect(await screen.findByText('Update available')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: "Take the platform's update of question 41" }))
    expect(await screen.findByText("Question 41 now has the platform's revision.")).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Take the platform/ })).toBeNull()
    expect(net.callsTo('POST', '/api/admin/bank/questions/41/update-from-source/')).toHaveLength(1)
  })

  it.each([
    ['source_gone', 'The platform no longer offers this question.'],
    ['no_update_available', 'There is no newer revision to take.'],
  ])('says why when the server refuses with %s', async (code, text) => {
    fakeNetwork({
      'POST /api/admin/bank/questions/41/update-from-source/': () => ({ status: 409, body: { detail: 'x', code } }),
    })
    renderRoutes([page(() => <UpdateAvailable id={41} />, '/b')], { path: '/b', language: 'en' })
    await userEvent.click(await screen.findByRole('button', { name: "Take the platform's update of question 41" }))
    expect(await screen.findByText(text)).toBeInTheDocument()
  })
})

import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { sessionStore } from '../../../session/session-store'
import { fakeNetwork, polyfillDialog, renderRoutes } from '../../../test/page-test-utils'
import { question, row } from '../platform-bank/platform-bank.fixtures'
import { Component as PlatformScreens } from './platform-screens'

vi.setConfig({ testTimeout: 20_000 })
configure({ asyncUtilTimeout: 4000 })
beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

const token = (claims: object) =>
  `e30.${btoa(JSON.stringify({ username: 'root', exp: Math.floor(Date.now() / 1000) + 3600, ...claims })).replace(/=+$/, '')}.sig`
const routes = () => [{ path: '/platform/*', Component: PlatformScreens }]

const LIST = 'GET /api/platform/bank/questions/'

describe("the platform's bank on its admins' screens: the admin bank's question form", () => {
  it('writes a new platform question through the bank form, at the platform bank, with its refusals at the fields', async () => {
    sessionStore.setTokens({ access: token({ is_platform_admin: true, institute: '~platform' }), refresh: 'r' })
    let posts = 0
    const net = fakeNetwork({
      [LIST]: () => ({ body: { count: 1, results: [row(7, 'What is the SI unit of force?')] } }),
      'POST /api/platform/bank/questions/': () =>
        ++posts === 1
          ? {
              status: 400,
              body: {
                detail: 'Invalid input.',
                errors: { 'tags.0': ['Ensure this field has no more than 40 characters.'] },
              },
            }
          : { status: 201, body: question(8) },
    })
    renderRoutes(routes(), { path: '/platform/bank' })
    expect(await screen.findByText('1 question')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'New question' }))
    // The bank's own form, with choice questions alone (written answers are an institute's to mark).
    expect(await screen.findByRole('heading', { name: 'Add New Question' })).toHaveFocus()
    expect(screen.queryByRole('group', { name: 'Question type' })).not.toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Question (English)'), 'Who wrote Muna Madan?')
    await userEvent.type(screen.getByLabelText('Tags'), 'Literature')
    await userEvent.click(screen.getByRole('button', { name: 'Save Question' }))
    expect(await screen.findByText('Ensure this field has no more than 40 characters.')).toBeInTheDocument()
    expect(screen.getByLabelText('Tags')).toHaveAttribute('aria-invalid', 'true')
    expect(net.callsTo('POST', '/api/platform/bank/questions/')[0]!.body).toMatchObject({
      text: { en: 'Who wrote Muna Madan?' },
      tags: ['Literature'],
    })
    await userEvent.click(screen.getByRole('button', { name: 'Save Question' }))
    expect(await screen.findByText('The question was saved in the platform bank.')).toBeInTheDocument()
    // The list is read again; nothing went to an institute's bank.
    await waitFor(() => expect(net.callsTo('GET', '/api/platform/bank/questions/').length).toBeGreaterThan(1))
    expect(net.calls.filter((call) => call.path.startsWith('/api/admin/'))).toEqual([])
  })

  it('edits a platform question opened from its card', async () => {
    sessionStore.setTokens({ access: token({ is_platform_admin: true, institute: '~platform' }), refresh: 'r' })
    const net = fakeNetwork({
      [LIST]: () => ({ body: { count: 1, results: [row(7, 'What is the SI unit of force?')] } }),
      'GET /api/platform/bank/questions/7/': () => ({ body: question(7) }),
      'PUT /api/platform/bank/questions/7/': () => ({ body: question(7) }),
    })
    renderRoutes(routes(), { path: '/platform/bank' })
    const card = (await screen.findByText('What is the SI unit of force?')).closest('li')!
    await userEvent.click(within(card).getByRole('button', { name: 'Edit question 7' }))
    expect(await screen.findByLabelText('Question (English)')).toHaveValue('What is the SI unit of force?')
    await userEvent.click(screen.getByRole('button', { name: 'Save Question' }))
    await waitFor(() =>
      expect(net.callsTo('PUT', '/api/platform/bank/questions/7/')[0]?.body).toMatchObject({
        text: { en: 'What is the SI unit of force?' },
        tags: ['loksewa'],
        source: 'Platform 2083',
      }),
    )
    expect(await screen.findByText('The question was saved in the platform bank.')).toBeInTheDocument()
  })

  it('in Nepali', async () => {
    sessionStore.setTokens({ access: token({ is_platform_admin: true, institute: '~platform' }), refresh: 'r' })
    fakeNetwork({ [LIST]: () => ({ body: { count: 1, results: [row(7, 'Force')] } }) })
    renderRoutes(routes(), { path: '/platform/bank', language: 'ne' })
    expect(await screen.findByRole('button', { name: 'नयाँ प्रश्न' })).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'प्रश्न ७ सम्पादन गर्नुहोस्' })).toBeInTheDocument()
  })
})

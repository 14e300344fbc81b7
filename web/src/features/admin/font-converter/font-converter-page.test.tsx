import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerFetch, signInAs, type SentRequest } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { Component as ConverterPage } from './font-converter-page'

vi.setConfig({ testTimeout: 20_000 })

// A stand-in for the server's converter: only the strings these tests type.
const converted: Record<string, string> = {
  'preeti:nf]s ;]jf cfof]u': 'लोक सेवा आयोग',
  'kantipur:nf]s ;]jf cfof]u': 'लोक सेवा आयोग (K)',
}
const sent: SentRequest[] = []
const conversions = () => sent.filter((request) => request.key === 'POST /api/admin/tools/legacy-font/')
let failing = false

beforeEach(() => {
  signInAs({ username: 'boss', is_admin: true })
  sent.length = 0
  failing = false
  answerFetch((key, body) => {
    if (key !== 'POST /api/admin/tools/legacy-font/') throw new Error(`unexpected ${key}`)
    if (failing) return { status: 500, body: { code: 'error', detail: 'Server error.' } }
    const { text, font } = body as { text: string; font: string }
    return { status: 200, body: { unicode: converted[`${font}:${text}`] ?? `?${text}` } }
  }, sent)
})
afterEach(() => vi.unstubAllGlobals())

const renderConverter = (language: 'en' | 'ne' = 'en') =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/font-converter" element={<ConverterPage />} />
    </Routes>,
    { route: '/admin/font-converter', language },
  )

describe('the Nepali font converter', () => {
  it('converts as the admin types, asking the server once typing pauses', async () => {
    const user = userEvent.setup()
    renderConverter()
    await user.type(screen.getByLabelText('Text in the legacy font'), 'nf]s ;]jf cfof]u')
    await waitFor(() => expect(screen.getByLabelText('Unicode')).toHaveValue('लोक सेवा आयोग'))
    expect(conversions().map((request) => request.body)).toEqual([{ text: 'nf]s ;]jf cfof]u', font: 'preeti' }])
  })

  it('converts again in the other font, and copies the Unicode', async () => {
    const user = userEvent.setup()
    renderConverter()
    await user.type(screen.getByLabelText('Text in the legacy font'), 'nf]s ;]jf cfof]u')
    await waitFor(() => expect(screen.getByLabelText('Unicode')).toHaveValue('लोक सेवा आयोग'))
    await user.click(screen.getByLabelText('Kantipur'))
    await waitFor(() => expect(screen.getByLabelText('Unicode')).toHaveValue('लोक सेवा आयोग (K)'))
    await user.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await navigator.clipboard.readText()).toBe('लोक सेवा आयोग (K)')
    expect(screen.getByText('Copied.')).toBeInTheDocument()
  })

  it('says so in Nepali when the server cannot convert', async () => {
    const user = userEvent.setup()
    failing = true
    renderConverter('ne')
    await user.type(screen.getByLabelText('पुरानो फन्टको पाठ'), 'k]kf')
    expect(await screen.findByRole('alert')).toHaveTextContent('पाठ बदल्न सकिएन')
    expect(screen.getByRole('button', { name: 'कपी गर्नुहोस्' })).toBeDisabled()
  })
})

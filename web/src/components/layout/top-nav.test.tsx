import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../test/render'

const pathshala = {
  slug: 'pathshala',
  name: { en: 'Pathshala', ne: 'पाठशाला' },
  logo: { url: '/api/pictures/abc.webp', width: 120, height: 40 },
  colour: '#facc15',
  open_registration: true,
}

/** The header as the app starts on a page the server branded (server/src/http/branded-pages.ts). */
async function headerOnPageOf(branding: object | null) {
  document.head.innerHTML = '<meta name="theme-color" content="#1d4ed8">'
  if (branding)
    document.head.insertAdjacentHTML('beforeend', `<meta name="institute" content='${JSON.stringify(branding)}'>`)
  vi.resetModules()
  const [{ TopNav }, institute] = await Promise.all([import('./top-nav'), import('../../lib/institute')])
  return { TopNav, institute }
}

afterEach(() => {
  document.head.innerHTML = ''
  vi.unstubAllGlobals()
})

// WEB.md "Institutes": every screen carries the institute of its address, its name in the reader's language.
describe('the header of an institute', () => {
  it("shows the institute's name and logo in English, and its Nepali name in Nepali", async () => {
    const { TopNav } = await headerOnPageOf(pathshala)
    const { unmount } = renderWithProviders(<TopNav />)
    const home = screen.getByRole('link', { name: 'Pathshala' })
    expect(home.querySelector('img')).toHaveAttribute('src', '/api/pictures/abc.webp')
    expect(screen.queryByText('Quiz Practice')).not.toBeInTheDocument()
    unmount()
    renderWithProviders(<TopNav />, { language: 'ne' })
    expect(screen.getByRole('link', { name: 'पाठशाला' })).toBeInTheDocument()
  })

  it("falls back to the English name, and to the product's where the page names no institute", async () => {
    const { TopNav } = await headerOnPageOf({ ...pathshala, name: { en: 'Pathshala', ne: '' }, logo: null })
    const { unmount } = renderWithProviders(<TopNav />, { language: 'ne' })
    expect(screen.getByRole('link', { name: 'Pathshala' })).toBeInTheDocument()
    unmount()
    const bare = await headerOnPageOf(null)
    renderWithProviders(<bare.TopNav />)
    expect(screen.getByRole('link', { name: 'Quiz Practice' })).toBeInTheDocument()
  })

  it('takes a rename and a new colour from the server, repainting the header', async () => {
    const { TopNav, institute } = await headerOnPageOf(pathshala)
    renderWithProviders(<TopNav />)
    const renamed = { ...pathshala, name: { en: 'Pathshala Plus', ne: '' }, colour: '#1e3a8a' }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(renamed), { status: 200 })),
    )
    await act(() => institute.refreshInstitute())
    expect(await screen.findByRole('link', { name: 'Pathshala Plus' })).toBeInTheDocument()
    expect(document.getElementById('institute-colours')?.textContent).toContain('--header-bg:#1e3a8a')
    expect(document.querySelector('meta[name="theme-color"]')).toHaveAttribute('content', '#1e3a8a')
  })
})

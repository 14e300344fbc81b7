import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { refreshInstitute, showInstitute } from '../../lib/institute'
import { renderWithProviders } from '../../test/render'
import { TopNav } from './top-nav'

const pathshala = {
  slug: 'pathshala',
  name: { en: 'Pathshala', ne: 'पाठशाला' },
  logo: { url: '/api/pictures/abc.webp', width: 120, height: 40 },
  colour: '#facc15',
  open_registration: true,
}

afterEach(async () => {
  vi.unstubAllGlobals()
  // A header may still be mounted here (the render's own clean-up comes later): its repaint is an update.
  await act(() => showInstitute(null))
  document.getElementById('institute-colours')?.remove()
})

// WEB.md "Institutes": every screen carries the institute of its address, its name in the reader's language.
describe('the header of an institute', () => {
  it("shows the institute's name and logo in English, and its Nepali name in Nepali", async () => {
    await showInstitute(pathshala)
    const { unmount } = renderWithProviders(<TopNav />)
    const home = screen.getByRole('link', { name: 'Pathshala' })
    expect(home.querySelector('img')).toHaveAttribute('src', '/api/pictures/abc.webp')
    expect(screen.queryByText('Quiz Practice')).not.toBeInTheDocument()
    unmount()
    renderWithProviders(<TopNav />, { language: 'ne' })
    expect(screen.getByRole('link', { name: 'पाठशाला' })).toBeInTheDocument()
  })

  it("falls back to the English name, and to the product's where the page names no institute", async () => {
    await showInstitute({ ...pathshala, name: { en: 'Pathshala', ne: '' }, logo: null })
    const { unmount } = renderWithProviders(<TopNav />, { language: 'ne' })
    expect(screen.getByRole('link', { name: 'Pathshala' })).toBeInTheDocument()
    unmount()
    await showInstitute(null)
    renderWithProviders(<TopNav />)
    expect(screen.getByRole('link', { name: 'Quiz Practice' })).toBeInTheDocument()
  })

  it('takes a rename and a new colour from the server, repainting the header', async () => {
    document.head.insertAdjacentHTML('beforeend', '<meta name="theme-color" content="#1d4ed8">')
    await showInstitute(pathshala)
    renderWithProviders(<TopNav />)
    const renamed = { ...pathshala, name: { en: 'Pathshala Plus', ne: '' }, colour: '#1e3a8a' }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(renamed), { status: 200 })),
    )
    await act(() => refreshInstitute())
    expect(await screen.findByRole('link', { name: 'Pathshala Plus' })).toBeInTheDocument()
    expect(document.getElementById('institute-colours')?.textContent).toContain('--header-bg:#1e3a8a')
    expect(document.querySelector('meta[name="theme-color"]')).toHaveAttribute('content', '#1e3a8a')
    document.querySelector('meta[name="theme-color"]')?.remove()
  })
})

import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse } from '../../test/page-test-utils'
import { renderWithProviders } from '../../test/render'
import { UserMenu } from './user-menu'

describe('account menu', () => {
  it('is a disclosure named from the letter it shows, closed by Escape with focus back on it', async () => {
    const user = userEvent.setup()
    const logout = vi.fn()
    renderWithProviders(<UserMenu username="sita" onLogout={logout} />)
    const toggle = screen.getByRole('button', { name: 'sita, account menu' })
    expect(toggle).toHaveTextContent('S')
    expect(toggle).toHaveAttribute('aria-expanded', 'false')

    await user.click(toggle)
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(screen.queryByRole('menu')).not.toBeInTheDocument()
    await user.tab()
    expect(screen.getByRole('link', { name: 'My Profile' })).toHaveFocus()

    await user.keyboard('{Escape}')
    expect(screen.queryByRole('link', { name: 'My Profile' })).not.toBeInTheDocument()
    expect(toggle).toHaveFocus()

    await user.click(toggle)
    await user.click(screen.getByRole('button', { name: 'Logout' }))
    expect(logout).toHaveBeenCalledOnce()
  })

  it("on the platform's address offers Logout alone, and asks for no memberships", async () => {
    const fetch = vi.fn(async () => jsonResponse(200, []))
    vi.stubGlobal('fetch', fetch)
    const user = userEvent.setup()
    renderWithProviders(<UserMenu username="root" platform onLogout={() => undefined} />)
    await user.click(screen.getByRole('button', { name: 'root, account menu' }))
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'My Profile' })).not.toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
    vi.unstubAllGlobals()
  })
})

// WEB.md "Institutes": "My institutes", with a link to each institute's address, for a learner of several.
describe('my institutes', () => {
  const membership = (slug: string, en: string, ne: string, hosts: string[]) => ({
    institute: { slug, name: { en, ne }, hosts, logo: null },
    roles: ['learner'],
  })
  afterEach(() => vi.unstubAllGlobals())

  it('lists each institute with a link to its address, in the reader language', async () => {
    const memberships = [
      membership('main', 'Quiz Practice', 'क्विज अभ्यास', ['main.quiz.example.np']),
      membership('pathshala', 'Pathshala', '', ['pathshala.example.np', 'pathshala.quiz.example.np']),
      membership('hidden', 'No address', '', []),
    ]
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, memberships)),
    )
    const user = userEvent.setup()
    renderWithProviders(<UserMenu username="sita" onLogout={() => undefined} />, { language: 'ne' })
    await user.click(screen.getByRole('button', { name: /sita/ }))
    const list = await screen.findByRole('navigation', { name: 'मेरा संस्थाहरू' })
    const links = within(list).getAllByRole('link')
    // On this page's scheme and port (development serves every host on one port).
    const port = window.location.port ? `:${window.location.port}` : ''
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['क्विज अभ्यास', `http://main.quiz.example.np${port}/`],
      ['Pathshala', `http://pathshala.example.np${port}/`],
    ])
    expect(links[1]).toHaveAttribute('lang', 'en')
  })

  it('says nothing of institutes to a learner of one', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, [membership('main', 'Quiz Practice', '', ['a.np'])])),
    )
    const user = userEvent.setup()
    renderWithProviders(<UserMenu username="sita" onLogout={() => undefined} />)
    await user.click(screen.getByRole('button', { name: /sita/ }))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByText('My institutes')).not.toBeInTheDocument()
    expect(vi.mocked(fetch)).toHaveBeenCalled()
  })
})

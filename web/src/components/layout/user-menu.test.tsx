import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
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
})

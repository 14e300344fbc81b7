import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Link, Outlet } from 'react-router'
import { describe, expect, it } from 'vitest'
import { renderRoutes } from '../../test/page-test-utils'
import { useScreenTitle } from './screen-title'

function Shell() {
  useScreenTitle()
  return (
    <>
      <nav>
        <Link to="/results/7">Open the report</Link>
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  )
}

const routes = [
  {
    element: <Shell />,
    children: [
      { path: '/', element: <h1>My Results</h1> },
      { path: '/results/:attemptId', element: <h1>Kharidar Mock 1</h1>, handle: { screen: 'nav:screens.report' } },
    ],
  },
]

describe('screen titles', () => {
  it('titles each screen by its name and heading, and moves focus to the new heading', async () => {
    const user = userEvent.setup()
    renderRoutes(routes, { path: '/' })
    expect(document.title).toBe('My Results — Quiz Practice')
    // The first screen keeps the browser's focus where it is: nothing was followed to get there.
    expect(screen.getByRole('heading', { name: 'My Results' })).not.toHaveFocus()

    await user.click(screen.getByRole('link', { name: 'Open the report' }))

    const heading = await screen.findByRole('heading', { name: 'Kharidar Mock 1' })
    expect(document.title).toBe('Report card: Kharidar Mock 1 — Quiz Practice')
    expect(heading).toHaveFocus()
  })

  it('titles the screen in Nepali when the page is in Nepali', () => {
    renderRoutes(routes, { path: '/results/7', language: 'ne' })
    expect(document.title).toBe('रिपोर्ट कार्ड: Kharidar Mock 1 — क्विज अभ्यास')
  })
})

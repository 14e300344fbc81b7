import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { beforeAll, describe, expect, it } from 'vitest'
import { polyfillDialog } from '../../test/page-test-utils'
import { renderWithProviders } from '../../test/render'
import { Dialog } from './dialog'

function Opener() {
  const [open, setOpen] = useState(false)
  return (
    <main>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Question 7
      </button>
      <Dialog open={open} title="Question 7" onClose={() => setOpen(false)}>
        <p>Details</p>
      </Dialog>
    </main>
  )
}

describe('Dialog', () => {
  beforeAll(polyfillDialog)

  it('gives focus back to what opened it when it closes', async () => {
    const user = userEvent.setup()
    renderWithProviders(<Opener />)
    const opener = screen.getByRole('button', { name: 'Question 7' })
    await user.click(opener)
    expect(screen.getByText('Details')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: /close|बन्द/i }))

    expect(screen.queryByText('Details')).not.toBeInTheDocument()
    expect(opener).toHaveFocus()
  })
})

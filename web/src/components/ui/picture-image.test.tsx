import { fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeAll, describe, expect, it } from 'vitest'
import { polyfillDialog } from '../../test/page-test-utils'
import { renderWithProviders } from '../../test/render'
import { QuestionImage } from './svg-image'

const picture = { url: `/api/pictures/${'b'.repeat(64)}.webp`, width: 1200, height: 900 }
const caption = { en: 'The Bagmati at Teku', ne: 'टेकुमा बागमती', html: null }

describe('a question picture', () => {
  beforeAll(polyfillDialog)

  it('is an <img> with its size set, lazy unless asked, named by its caption', () => {
    renderWithProviders(<QuestionImage image={{ svg: null, picture, caption }} />)
    const image = screen.getByRole('img', { name: 'The Bagmati at Teku' })
    expect(image).toHaveAttribute('src', picture.url)
    expect(image).toHaveAttribute('width', '1200')
    expect(image).toHaveAttribute('height', '900')
    expect(image).toHaveAttribute('loading', 'lazy')
    expect(image).toHaveAttribute('decoding', 'async')
    expect(screen.getByText('The Bagmati at Teku', { selector: 'figcaption *, figcaption' })).toBeInTheDocument()
  })

  it('loads at once when it is the one above the fold, and names itself in Nepali', () => {
    renderWithProviders(<QuestionImage image={{ svg: null, picture, caption }} eager />, { language: 'ne' })
    expect(screen.getByRole('img', { name: 'टेकुमा बागमती' })).toHaveAttribute('loading', 'eager')
  })

  it('opens full screen on a tap, named by its caption, and closes with the close button or Escape', async () => {
    const user = userEvent.setup()
    renderWithProviders(<QuestionImage image={{ svg: null, picture, caption }} />)
    const opener = screen.getByRole('button', { name: /The Bagmati at Teku.*open full screen/ })
    await user.click(opener)
    const dialog = screen.getByRole('dialog', { name: 'The Bagmati at Teku' })
    const full = within(dialog).getByRole('img', { name: 'The Bagmati at Teku' })
    expect(full).toHaveAttribute('src', picture.url)
    expect(full).toHaveAttribute('width', '1200')
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(opener).toHaveFocus()

    await user.click(opener)
    // Escape on a modal <dialog> fires `cancel` (jsdom has no modal dialogs of its own).
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(opener).toHaveFocus()
  })

  it('keeps drawing an SVG image as before', () => {
    renderWithProviders(
      <QuestionImage image={{ svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', picture: null, caption }} />,
    )
    expect(screen.getByRole('img', { name: 'The Bagmati at Teku' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    )
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
  })
})

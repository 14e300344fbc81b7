import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { requestTo } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import type { AdminQuestion } from './quizzes.api'
import { QuestionForm } from './question-form'

const STORED_URL = `/api/pictures/${'a'.repeat(64)}.webp`

const stored: AdminQuestion = {
  id: 11,
  revision_id: 110,
  text: { en: 'Which river is this?', ne: '', html: null },
  hint: null,
  topic: '',
  image: {
    svg: null,
    picture: { url: STORED_URL, width: 800, height: 600 },
    caption: { en: 'A river', ne: '', html: null },
  },
  options: [
    { id: 1, text: { en: 'Bagmati', ne: '', html: null }, is_correct: true, image: null },
    { id: 2, text: { en: 'Koshi', ne: '', html: null }, is_correct: false, image: null },
  ],
  key: null,
  type: 'choice',
  marks: null,
  word_limit: null,
  model_answer: null,
  answer: null,
  decimals: null,
}

function renderForm(question: AdminQuestion | null = null, language: 'en' | 'ne' = 'en') {
  renderWithProviders(<QuestionForm quizId={3} question={question} onSaved={vi.fn()} onCancel={vi.fn()} />, {
    language,
  })
  // The file input's accept list is what the device refuses; the test sends what a phone's gallery may give.
  return userEvent.setup({ applyAccept: false })
}

const questionPicture = () => screen.getByRole('group', { name: 'Question picture' })
const png = (bytes = 8, name = 'map.png') => new File([new Uint8Array(bytes)], name, { type: 'image/png' })

function saveAnswering(status = 201, body: unknown = { ...stored, id: 12 }) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))
}
const sentBody = (fetch: ReturnType<typeof saveAnswering>) =>
  JSON.parse(requestTo(fetch, '/api/admin/quizzes/3/questions/').body) as {
    image: unknown
    options: { image: unknown }[]
  }

describe('the picture field', () => {
  it('takes a chosen file, previews it as learners see it, and sends it as a data URL', async () => {
    const user = renderForm()
    await user.type(screen.getByLabelText('Question (English)'), 'Which river?')
    await user.upload(within(questionPicture()).getByLabelText('Choose a picture'), png())
    const preview = await within(questionPicture()).findByRole('img', { name: 'Image preview' })
    expect(preview).toHaveAttribute('src', expect.stringMatching(/^data:image\/png;base64,/))
    expect(within(questionPicture()).getByText('New picture: it is stored when you save.')).toBeInTheDocument()

    const fetch = saveAnswering()
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    await waitFor(() => requestTo(fetch, '/api/admin/quizzes/3/questions/'))
    expect(sentBody(fetch).image).toEqual({
      picture: expect.stringMatching(/^data:image\/png;base64,/),
      caption: { en: '', ne: '' },
    })
  })

  it('takes a picture pasted from the clipboard into an option', async () => {
    const user = renderForm()
    const option = screen.getByRole('group', { name: 'Option 2' })
    await user.click(within(option).getByText('Image (optional)'))
    const box = within(option).getByRole('textbox', { name: 'Paste a picture here' })
    const paste = createEvent.paste(box, { clipboardData: { files: [png(8, 'image.png')] } })
    fireEvent(box, paste)
    expect(paste.defaultPrevented).toBe(true)
    expect(await within(option).findByRole('img', { name: 'Image preview' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png/),
    )
  })

  it('says so when the clipboard holds no picture', async () => {
    renderForm()
    const box = within(questionPicture()).getByRole('textbox', { name: 'Paste a picture here' })
    fireEvent.paste(box, { clipboardData: { files: [] } })
    expect(await within(questionPicture()).findByText(/The clipboard holds no picture/)).toBeInTheDocument()
  })

  it('refuses on the device a file that is not a picture, and one over 5 MB, in the reader’s language', async () => {
    const user = renderForm(null, 'ne')
    const group = screen.getByRole('group', { name: 'प्रश्नको तस्बिर' })
    const chooser = within(group).getByLabelText('तस्बिर छान्नुहोस्')
    await user.upload(chooser, new File(['%PDF-1.4'], 'paper.pdf', { type: 'application/pdf' }))
    await waitFor(() => expect(chooser).toHaveAttribute('aria-invalid', 'true'))
    expect(chooser).toHaveAccessibleDescription(/यो तस्बिर होइन/)
    await user.upload(chooser, png(5 * 1024 * 1024 + 1, 'huge.png'))
    await waitFor(() => expect(chooser).toHaveAccessibleDescription(/बढीमा ५ MB/))
    expect(within(group).queryByRole('img')).not.toBeInTheDocument()
  })

  it('shows a stored picture and sends it back unchanged by its url', async () => {
    const user = renderForm(stored)
    const preview = within(questionPicture()).getByRole('img', { name: 'A river' })
    expect(preview).toHaveAttribute('src', STORED_URL)
    expect(preview).toHaveAttribute('width', '800')
    expect(within(questionPicture()).queryByText(/New picture/)).not.toBeInTheDocument()

    const fetch = saveAnswering(200, stored)
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    await waitFor(() => requestTo(fetch, '/api/admin/quizzes/3/questions/'))
    expect(sentBody(fetch).image).toEqual({ picture: { url: STORED_URL }, caption: { en: 'A river', ne: '' } })
  })

  it('removes a picture, and sends no image then', async () => {
    const user = renderForm(stored)
    await user.click(within(questionPicture()).getByRole('button', { name: 'Remove picture' }))
    expect(within(questionPicture()).queryByRole('img')).not.toBeInTheDocument()
    expect(within(questionPicture()).getByLabelText('Choose a picture')).toHaveFocus()
    const fetch = saveAnswering(200, stored)
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    await waitFor(() => requestTo(fetch, '/api/admin/quizzes/3/questions/'))
    expect(sentBody(fetch).image).toBeNull()
  })

  it("shows the server's message about an option's picture at that picture", async () => {
    saveAnswering(413, {
      detail: 'Payload too large.',
      code: 'payload_too_large',
      errors: { 'options.1.image.picture': ['A picture may be at most 5 MB.'] },
    })
    const user = renderForm(stored)
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    const option = screen.getByRole('group', { name: 'Option 2' })
    const chooser = await within(option).findByLabelText('Choose a picture')
    await waitFor(() => expect(chooser).toHaveAttribute('aria-invalid', 'true'))
    expect(chooser).toHaveAccessibleDescription(/A picture may be at most 5 MB\./)
    expect(chooser).toBeVisible()
  })
})

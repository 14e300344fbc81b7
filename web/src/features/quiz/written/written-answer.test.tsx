import type { QuizQuestion } from '@quiz/contracts'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useSyncExternalStore } from 'react'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../api/api-error'
import { makeQuestion } from '../../../test/quiz-fixtures'
import { renderWithProviders } from '../../../test/render'
import { fakeWrittenServer, memoryPageStore } from './written-fakes.test-utils'
import { countStates } from '../palette-state'
import { WrittenAnswer } from './written-answer'
import { WrittenAfterHandIn } from './written-status'
import { WrittenQueue } from './written-queue'
import { writtenStorageKey } from './written-stored'

const question: QuizQuestion = {
  ...makeQuestion(2),
  type: 'written',
  text: {
    en: 'Explain the role of the Public Service Commission.',
    ne: 'लोक सेवा आयोगको भूमिका व्याख्या गर्नुहोस्।',
    html: null,
  },
  options: [],
  marks: 10,
  word_limit: 5,
}

function setup(language: 'en' | 'ne' = 'en') {
  const server = fakeWrittenServer()
  const queue = new WrittenQueue({
    storageKey: writtenStorageKey(42),
    transport: server.transport,
    pageStore: memoryPageStore(),
    debounceMs: 0,
    previewOf: () => null,
  })
  queue.start()
  function Screen() {
    const snapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot)
    return (
      <>
        <WrittenAnswer
          question={question}
          total={12}
          state={snapshot.answers[String(question.id)]}
          queue={queue}
          disabled={false}
        />
        <WrittenAfterHandIn snapshot={snapshot} />
      </>
    )
  }
  renderWithProviders(<Screen />, { language })
  return { server, queue }
}

const photo = (name: string) => new File([name], `${name}.jpg`, { type: 'image/jpeg' })

describe('the exam screen’s written question', () => {
  it('shows its marks and word limit, counts words as they are typed and saves the text', async () => {
    const user = userEvent.setup()
    const { server, queue } = setup()
    expect(screen.getByText('Marks: 10')).toBeInTheDocument()
    expect(screen.getByText('Word limit: 5 words')).toBeInTheDocument()
    const box = screen.getByRole('textbox', { name: 'Type your answer (Nepali or English)' })
    await user.type(box, 'It recruits civil servants')
    expect(box).toHaveAccessibleDescription('4 of 5 words')
    await user.type(box, ' on merit alone')
    expect(box).toHaveAccessibleDescription('7 of 5 words Over the word limit.')
    await waitFor(() => expect(server.texts.get(question.id)).toBe('It recruits civil servants on merit alone'))
    // The palette counts it answered.
    const maps = { answers: {}, marked: {}, visited: {}, written: queue.getSnapshot().answered }
    expect(countStates([question.id], maps).answered).toBe(1)
  })

  it('counts Nepali words typed with any keyboard, in Devanagari digits', async () => {
    const user = userEvent.setup()
    setup('ne')
    expect(screen.getByText('अङ्क: १०')).toBeInTheDocument()
    const box = screen.getByRole('textbox', { name: 'आफ्नो उत्तर टाइप गर्नुहोस् (नेपाली वा अङ्ग्रेजी)' })
    await user.type(box, 'लोक सेवा आयोग संवैधानिक निकाय हो।')
    expect(box).toHaveAccessibleDescription('५ मध्ये ६ शब्द शब्द सीमाभन्दा बढी।')
  })

  it('adds photos from the gallery, several at once, and reorders and removes them', async () => {
    const user = userEvent.setup()
    const { server } = setup()
    const gallery = screen.getByLabelText('Choose from gallery')
    expect(gallery).toHaveAttribute('multiple')
    expect(screen.getByLabelText('Take a photo')).toHaveAttribute('capture', 'environment')
    const [a, b, c] = [photo('a'), photo('b'), photo('c')]
    await user.upload(gallery, [a, b, c])
    await waitFor(() => expect(screen.getAllByText('Sent')).toHaveLength(3))
    expect(server.photoOrder(question.id)).toEqual([a, b, c])

    await user.click(screen.getByRole('button', { name: 'Move page 3 earlier' }))
    await waitFor(() => expect(server.photoOrder(question.id)).toEqual([a, c, b]))
    expect(screen.getByRole('button', { name: 'Move page 1 earlier' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Remove page 1' }))
    await waitFor(() => expect(server.photoOrder(question.id)).toEqual([c, b]))
    expect(screen.getAllByRole('listitem')).toHaveLength(2)
  })

  it('says clearly when a photo is too large or one page too many', async () => {
    const user = userEvent.setup()
    const { server } = setup()
    server.failWith(() => new ApiError(413, 'payload_too_large', 'The photo is too large: at most 15 MB.'))
    await user.upload(screen.getByLabelText('Choose from gallery'), [photo('big')])
    expect(await screen.findByText(/This photo is too large to send/)).toBeInTheDocument()
    server.failWith(() => new ApiError(409, 'too_many_pages', 'A question takes at most 12 pages.'))
    await user.upload(screen.getByLabelText('Choose from gallery'), [photo('more')])
    expect(await screen.findByText(/An answer takes at most 12 pages/)).toBeInTheDocument()
    server.failWith(() => new ApiError(409, 'upload_quota_exceeded', 'Your photos have filled your space.'))
    await user.upload(screen.getByLabelText('Choose from gallery'), [photo('full')])
    expect(await screen.findByText(/Your photos have filled the space kept for you/)).toBeInTheDocument()
  })

  it('after the hand-in, says pages still go and then which did not arrive when the grace is over', async () => {
    const user = userEvent.setup()
    const { server, queue } = setup()
    server.failWith(() => new ApiError(0, 'network_error', 'Failed to fetch'))
    await user.upload(screen.getByLabelText('Choose from gallery'), [photo('a'), photo('b')])
    act(() => queue.closeTexts())
    expect(await screen.findByText(/2 photos of your written answers are still being sent/)).toBeInTheDocument()
    server.failWith(() => new ApiError(409, 'upload_closed', 'This attempt no longer accepts answers.'))
    await act(() => queue.flush())
    expect(await screen.findByText('The time for sending photos is over: 2 photos did not arrive.')).toBeInTheDocument()
  })
})

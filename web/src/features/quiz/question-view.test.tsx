import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { polyfillDialog } from '../../test/page-test-utils'
import { makeQuestion } from '../../test/quiz-fixtures'
import { renderWithProviders } from '../../test/render'
import { QuestionView } from './question-view'

const picture = (letter: string) => ({ url: `/api/pictures/${letter.repeat(64)}.webp`, width: 640, height: 480 })
const question = {
  ...makeQuestion(3),
  image: { svg: null, picture: picture('a'), caption: { en: '', ne: '', html: null } },
  options: makeQuestion(3).options.map((option, index) =>
    index === 1
      ? { ...option, image: { svg: null, picture: picture('c'), caption: { en: '', ne: '', html: null } } }
      : option,
  ),
}

describe('an exam question with pictures', () => {
  beforeAll(polyfillDialog)

  it('loads its own picture at once and the options’ lazily, and an option’s picture enlarges beside it', async () => {
    const user = userEvent.setup()
    const onSelect = vi.fn()
    renderWithProviders(<QuestionView question={question} total={12} selectedOptionId={null} onSelect={onSelect} />)
    const own = screen.getByRole('img', { name: 'Image for question 3' })
    expect(own).toHaveAttribute('loading', 'eager')
    expect(own).toHaveAttribute('width', '640')
    const optionPicture = screen.getByRole('img', { name: 'Image for option B' })
    expect(optionPicture).toHaveAttribute('loading', 'lazy')

    // A tap on the option's picture chooses the option, as a tap anywhere on it does.
    await user.click(optionPicture)
    expect(onSelect).toHaveBeenCalledWith(question.options[1]!.id)

    await user.click(screen.getByRole('button', { name: 'Enlarge: Image for option B' }))
    const dialog = screen.getByRole('dialog', { name: 'Image for option B' })
    expect(within(dialog).getByRole('img')).toHaveAttribute('src', picture('c').url)
  })
})

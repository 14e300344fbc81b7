import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Button } from '../../components/ui/button'
import { parseId } from '../../lib/route-id'
import { fromDevanagariDigits } from '../../lib/digits'
import { paths } from '../../lib/paths'
import { MarkingQuizzes } from './marking-quizzes'
import './marking.css'
import './marking.i18n'

/**
 * /marking: a marker's way in (docs/decisions/094). The quizzes with written answers to mark, with their counts; below,
 * a quiz's number or marking link (pasted whole) still opens one the list leaves out: a quiz taken back to draft or
 * deleted keeps answers to mark.
 */
export function Component() {
  const { t } = useTranslation('marking')
  const navigate = useNavigate()
  const [value, setValue] = useState('')
  const [invalid, setInvalid] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const typed = fromDevanagariDigits(value.trim())
    const id = parseId(typed.match(/quiz\/(\d+)/)?.[1] ?? typed)
    if (id === null) return setInvalid(true)
    navigate(paths.markingQuiz(id))
  }
  return (
    <div className="admin marking-home">
      <h1>{t('home.title')}</h1>
      <p>{t('home.intro')}</p>
      <MarkingQuizzes />
      <h2 id="marking-other-heading">{t('home.other_heading')}</h2>
      <p className="muted">{t('home.other_intro')}</p>
      <form className="card marking-home__form" onSubmit={submit} noValidate aria-labelledby="marking-other-heading">
        <div className="field">
          <label htmlFor="marking-quiz">{t('home.quiz_label')}</label>
          <input
            id="marking-quiz"
            inputMode="numeric"
            value={value}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? 'marking-quiz-error' : undefined}
            onChange={(event) => {
              setValue(event.target.value)
              setInvalid(false)
            }}
          />
          {invalid && (
            <span id="marking-quiz-error" className="field__error">
              {t('home.quiz_invalid')}
            </span>
          )}
        </div>
        <Button type="submit" variant="primary">
          {t('home.open')}
        </Button>
      </form>
    </div>
  )
}

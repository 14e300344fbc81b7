import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Button } from '../../components/ui/button'
import { parseId } from '../../lib/route-id'
import { fromDevanagariDigits } from '../../lib/digits'
import { paths } from '../../lib/paths'
import './marking.css'
import './marking.i18n'

/**
 * /marking: a marker's way in. Markers see no admin list of quizzes, so the institute gives them a quiz's marking
 * link or number; a link pasted whole works too.
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
      <form className="card marking-home__form" onSubmit={submit} noValidate>
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

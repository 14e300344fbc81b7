import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { peopleQueries } from '../people/people.api'
import './sittings.i18n'

/** "Choose from Learners": the Learners list searched by name, username or phone, each one added with a tap. */
export function LearnerPicker({ onPick }: { onPick: (username: string, name: string) => void }) {
  const { t } = useTranslation('sittings')
  const [search, setSearch] = useState('')
  const [asked, setAsked] = useState<string | null>(null)
  const learners = useQuery({ ...peopleQueries.learners(asked ?? '', 1), enabled: asked !== null })
  const id = useId()
  return (
    <details className="sittings-picker">
      <summary>{t('roster.choose')}</summary>
      <form
        className="sittings-picker__search"
        role="search"
        onSubmit={(event) => {
          event.preventDefault()
          setAsked(search.trim())
        }}
      >
        <label htmlFor={id}>{t('roster.search_label')}</label>
        <input id={id} type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        <Button type="submit">{t('roster.search')}</Button>
      </form>
      <div aria-live="polite">
        {learners.isError && <Alert kind="error">{t('roster.search_failed')}</Alert>}
        {learners.data && learners.data.results.length === 0 && <p className="muted">{t('roster.none_found')}</p>}
        {learners.data && learners.data.results.length > 0 && (
          <ul className="sittings-picker__list">
            {learners.data.results
              .filter((user) => !user.is_admin)
              .map((user) => (
                <li key={user.id}>
                  <span>
                    {user.full_name || user.username} <span className="muted">({user.username})</span>
                  </span>
                  <Button
                    small
                    aria-label={t('roster.add_named', { name: user.full_name || user.username })}
                    onClick={() => onPick(user.username, user.full_name)}
                  >
                    {t('roster.add')}
                  </Button>
                </li>
              ))}
          </ul>
        )}
      </div>
    </details>
  )
}

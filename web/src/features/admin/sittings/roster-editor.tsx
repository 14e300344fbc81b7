import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { fieldErrorsOf } from '../../../components/ui/form/server-errors'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { TableHead, TableScroll } from '../ui'
import { LearnerPicker } from './learner-picker'
import { messagesByLine, parseRosterLines, row, rowsOf, toRosterInput, type RosterRow } from './roster-lines'
import { useSaveRoster, type Roster, type SittingSet } from './sittings.api'
import './sittings.i18n'

interface RosterEditorProps {
  quizId: number
  sittingId: number
  sets: readonly SittingSet[]
  roster: Roster
}

/** The roster: pasted or chosen learners, their roll numbers and sets, saved as a whole (the server deals the blanks). */
export function RosterEditor({ quizId, sittingId, sets, roster }: RosterEditorProps) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const save = useSaveRoster(quizId, sittingId)
  const [rows, setRows] = useState<RosterRow[]>(() => rowsOf(roster))
  const [paste, setPaste] = useState('')
  const [saved, setSaved] = useState(false)
  const pasteId = useId()
  const refusal = save.error instanceof ApiError ? messagesByLine(fieldErrorsOf(save.error)) : null

  const change = (key: number, patch: Partial<RosterRow>) => {
    setSaved(false)
    setRows((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)))
  }
  const add = (added: RosterRow[]) => {
    setSaved(false)
    setRows((current) => [...current, ...added.filter((item) => !current.some((old) => old.who === item.who))])
  }
  const submit = () =>
    save.mutate(toRosterInput(rows), {
      onSuccess: (answer) => {
        setRows(rowsOf(answer))
        setSaved(true)
      },
    })

  return (
    <div className="stack">
      <div className="field">
        <label htmlFor={pasteId}>{t('roster.paste_label')}</label>
        <p className="field__hint" id={`${pasteId}-hint`}>
          {t('roster.paste_hint')}
        </p>
        <textarea
          id={pasteId}
          aria-describedby={`${pasteId}-hint`}
          rows={4}
          value={paste}
          onChange={(event) => setPaste(event.target.value)}
        />
      </div>
      <div className="actions">
        <Button
          onClick={() => {
            add(parseRosterLines(paste, sets))
            setPaste('')
          }}
          disabled={!paste.trim()}
        >
          {t('roster.add_pasted')}
        </Button>
      </div>
      <LearnerPicker onPick={(username, name) => add([row(username, '', '', name)])} />
      <h3>{t('roster.lines', { count: rows.length, n: formatNumber(rows.length, language) })}</h3>
      {refusal && refusal.other.length + refusal.lines.size === 0 && (
        <Alert kind="error">{save.error instanceof ApiError ? save.error.detail : t('roster.save_failed')}</Alert>
      )}
      {refusal && refusal.lines.size > 0 && <Alert kind="error">{t('roster.refused_lines')}</Alert>}
      {refusal?.other.map((message) => (
        <Alert key={message} kind="error">
          {message}
        </Alert>
      ))}
      {save.isError && !refusal && <Alert kind="error">{t('roster.save_failed')}</Alert>}
      {saved && <Alert kind="success">{t('roster.saved')}</Alert>}
      {rows.length > 0 && (
        <TableScroll label={t('roster.table')}>
          <table className="admin-table sittings-roster">
            <TableHead
              columns={[
                { label: t('roster.line'), numeric: true },
                { label: t('roster.learner') },
                { label: t('roster.roll') },
                { label: t('roster.set') },
                { label: <span className="visually-hidden">{t('roster.actions')}</span> },
              ]}
            />
            <tbody>
              {rows.map((item, index) => (
                <RosterLine
                  key={item.key}
                  item={item}
                  index={index}
                  sets={sets}
                  messages={refusal?.lines.get(index)}
                  onChange={(patch) => change(item.key, patch)}
                  onRemove={() => {
                    setSaved(false)
                    setRows((current) => current.filter((other) => other.key !== item.key))
                  }}
                />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <div className="actions">
        <Button variant="primary" onClick={submit} disabled={save.isPending}>
          {save.isPending ? t('roster.saving') : t('roster.save')}
        </Button>
      </div>
    </div>
  )
}

/** One line of the roster: the learner (with the server's refusal of that line), roll number, set and Remove. */
function RosterLine({
  item,
  index,
  sets,
  messages,
  onChange,
  onRemove,
}: {
  item: RosterRow
  index: number
  sets: readonly SittingSet[]
  messages: string[] | undefined
  onChange: (patch: Partial<RosterRow>) => void
  onRemove: () => void
}) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const line = formatNumber(index + 1, language)
  const errorId = `roster-line-${item.key}-error`
  return (
    <tr className={messages ? 'sittings-roster__refused' : undefined}>
      <td className="admin-num">{line}</td>
      <td>
        <input
          aria-label={t('roster.learner_of', { line })}
          aria-invalid={messages ? true : undefined}
          aria-describedby={messages ? errorId : undefined}
          value={item.who}
          onChange={(event) => onChange({ who: event.target.value, name: '' })}
        />
        {item.name && <span className="sittings-roster__name">{item.name}</span>}
        {messages && (
          <span className="field__error" id={errorId}>
            {messages.join(' ')}
          </span>
        )}
      </td>
      <td>
        <input
          className="sittings-roster__roll"
          inputMode="numeric"
          aria-label={t('roster.roll_of', { line })}
          placeholder={t('roster.auto')}
          value={item.roll}
          onChange={(event) => onChange({ roll: event.target.value.replace(/\D/g, '') })}
        />
      </td>
      <td>
        <select
          aria-label={t('roster.set_of', { line })}
          value={item.set}
          onChange={(event) => onChange({ set: event.target.value as SittingSet | '' })}
        >
          <option value="">{t('roster.auto')}</option>
          {sets.map((set) => (
            <option key={set} value={set}>
              {set}
            </option>
          ))}
        </select>
      </td>
      <td>
        <Button small aria-label={t('roster.remove_of', { line, who: item.who })} onClick={onRemove}>
          {t('roster.remove')}
        </Button>
      </td>
    </tr>
  )
}

import { useId, useState, type DragEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import {
  moved,
  newGroup,
  newItem,
  withoutGroup,
  type RubricDraft,
  type RubricGroupDraft,
  type RubricItemDraft,
} from './rubric-draft'
import '../admin.i18n'
import './rubric.css'

interface RubricEditorProps {
  draft: RubricDraft
  onChange: (draft: RubricDraft) => void
  disabled?: boolean
}

/**
 * A written question's rubric (WEB.md "Written answers"): items with signed points, a title and an explanation in
 * each language, optional groups of which an answer may take one item, positive or negative scoring and the bounds.
 * Items move by dragging, or by the keyboard with their Move up / Move down buttons.
 */
export function RubricEditor({ draft, onChange, disabled = false }: RubricEditorProps) {
  const { t } = useTranslation('admin')
  const headingId = useId()
  const [dragging, setDragging] = useState<number | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const setItem = (index: number, item: Partial<RubricItemDraft>) =>
    onChange({ ...draft, items: draft.items.map((entry, at) => (at === index ? { ...entry, ...item } : entry)) })
  const setGroup = (index: number, group: Partial<RubricGroupDraft>) =>
    onChange({ ...draft, groups: draft.groups.map((entry, at) => (at === index ? { ...entry, ...group } : entry)) })
  const moveItem = (from: number, to: number) => {
    if (to < 0 || to >= draft.items.length) return
    onChange({ ...draft, items: moved(draft.items, from, to) })
    setAnnouncement(t('written.rubric.moved', { from: from + 1, to: to + 1 }))
  }
  const drop = (event: DragEvent, to: number) => {
    event.preventDefault()
    if (dragging !== null) moveItem(dragging, to)
    setDragging(null)
  }

  return (
    <fieldset className="rubric" aria-labelledby={headingId} disabled={disabled}>
      <legend id={headingId}>{t('written.rubric.heading')}</legend>
      <p className="field__hint">{t('written.rubric.hint')}</p>

      <div className="rubric__scoring" role="radiogroup" aria-label={t('written.rubric.scoring')}>
        {(['positive', 'negative'] as const).map((scoring) => (
          <label key={scoring} className="rubric__radio">
            <input
              type="radio"
              name={`${headingId}-scoring`}
              checked={draft.scoring === scoring}
              onChange={() => onChange({ ...draft, scoring })}
            />
            <span>{t(`written.rubric.scoring_${scoring}`)}</span>
          </label>
        ))}
      </div>
      <div className="admin-grid">
        <NumberInput
          label={t('written.rubric.floor')}
          hint={t('written.rubric.floor_hint')}
          value={draft.floor}
          onChange={(floor) => onChange({ ...draft, floor })}
        />
        <NumberInput
          label={t('written.rubric.ceiling')}
          hint={t('written.rubric.ceiling_hint')}
          value={draft.ceiling}
          onChange={(ceiling) => onChange({ ...draft, ceiling })}
        />
      </div>

      <h4>{t('written.rubric.items')}</h4>
      {draft.items.length === 0 && <p className="muted">{t('written.rubric.no_items')}</p>}
      <ol className="rubric__items">
        {draft.items.map((item, index) => (
          <li
            key={item.key}
            className={`rubric__item${dragging === index ? ' rubric__item--dragging' : ''}`}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => drop(event, index)}
          >
            <div className="rubric__item-head">
              <span
                className="rubric__handle"
                draggable={!disabled}
                onDragStart={(event) => {
                  event.dataTransfer.effectAllowed = 'move'
                  event.dataTransfer.setData('text/plain', String(index))
                  setDragging(index)
                }}
                onDragEnd={() => setDragging(null)}
                aria-hidden="true"
                title={t('written.rubric.drag')}
              >
                ⠿
              </span>
              <strong>{t('written.rubric.item', { number: index + 1 })}</strong>
              <span className="rubric__item-actions">
                <Button
                  small
                  disabled={index === 0}
                  aria-label={t('written.rubric.move_up', { number: index + 1 })}
                  onClick={() => moveItem(index, index - 1)}
                >
                  ↑
                </Button>
                <Button
                  small
                  disabled={index === draft.items.length - 1}
                  aria-label={t('written.rubric.move_down', { number: index + 1 })}
                  onClick={() => moveItem(index, index + 1)}
                >
                  ↓
                </Button>
                <Button
                  small
                  variant="danger"
                  aria-label={t('written.rubric.remove_item', { number: index + 1 })}
                  onClick={() => onChange({ ...draft, items: draft.items.filter((_, at) => at !== index) })}
                >
                  {t('written.rubric.remove')}
                </Button>
              </span>
            </div>
            <div className="admin-grid">
              <NumberInput
                label={t('written.rubric.points', { number: index + 1 })}
                hint={t('written.rubric.points_hint')}
                value={item.points}
                onChange={(points) => setItem(index, { points })}
              />
              {draft.groups.length > 0 && (
                <SelectInput
                  label={t('written.rubric.group_of', { number: index + 1 })}
                  value={item.group}
                  options={[
                    { value: '', label: t('written.rubric.no_group') },
                    ...draft.groups.map((group, at) => ({
                      value: group.key,
                      label: group.title.en || group.title.ne || t('written.rubric.group', { number: at + 1 }),
                    })),
                  ]}
                  onChange={(group) => setItem(index, { group })}
                />
              )}
            </div>
            <div className="admin-grid">
              <TextInput
                label={t('written.rubric.title_en', { number: index + 1 })}
                lang="en"
                value={item.title.en}
                onChange={(en) => setItem(index, { title: { ...item.title, en } })}
              />
              <TextInput
                label={t('written.rubric.title_ne', { number: index + 1 })}
                lang="ne"
                value={item.title.ne}
                onChange={(ne) => setItem(index, { title: { ...item.title, ne } })}
              />
              <TextInput
                multiline
                label={t('written.rubric.explanation_en', { number: index + 1 })}
                lang="en"
                value={item.explanation.en}
                onChange={(en) => setItem(index, { explanation: { ...item.explanation, en } })}
              />
              <TextInput
                multiline
                label={t('written.rubric.explanation_ne', { number: index + 1 })}
                lang="ne"
                value={item.explanation.ne}
                onChange={(ne) => setItem(index, { explanation: { ...item.explanation, ne } })}
              />
            </div>
          </li>
        ))}
      </ol>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <Button onClick={() => onChange({ ...draft, items: [...draft.items, newItem()] })}>
        {t('written.rubric.add_item')}
      </Button>

      <h4>{t('written.rubric.groups')}</h4>
      <p className="field__hint">{t('written.rubric.groups_hint')}</p>
      <ul className="rubric__groups">
        {draft.groups.map((group, index) => (
          <li key={group.key} className="rubric__group">
            <div className="admin-grid">
              <TextInput
                label={t('written.rubric.group_title_en', { number: index + 1 })}
                lang="en"
                value={group.title.en}
                onChange={(en) => setGroup(index, { title: { ...group.title, en } })}
              />
              <TextInput
                label={t('written.rubric.group_title_ne', { number: index + 1 })}
                lang="ne"
                value={group.title.ne}
                onChange={(ne) => setGroup(index, { title: { ...group.title, ne } })}
              />
            </div>
            <label className="rubric__check">
              <input
                type="checkbox"
                checked={group.exclusive}
                onChange={(event) => setGroup(index, { exclusive: event.target.checked })}
              />
              <span>{t('written.rubric.exclusive')}</span>
            </label>
            <Button
              small
              variant="danger"
              aria-label={t('written.rubric.remove_group', { number: index + 1 })}
              onClick={() => onChange(withoutGroup(draft, group.key))}
            >
              {t('written.rubric.remove')}
            </Button>
          </li>
        ))}
      </ul>
      <Button onClick={() => onChange({ ...draft, groups: [...draft.groups, newGroup()] })}>
        {t('written.rubric.add_group')}
      </Button>
    </fieldset>
  )
}

function TextInput({
  label,
  value,
  onChange,
  lang,
  multiline,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  lang: string
  multiline?: boolean
}) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea id={id} lang={lang} rows={2} value={value} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input id={id} lang={lang} value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </div>
  )
}

function NumberInput({
  label,
  hint,
  value,
  onChange,
}: {
  label: string
  hint: string
  value: string
  onChange: (value: string) => void
}) {
  const id = useId()
  const hintId = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        aria-describedby={hintId}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={hintId} className="field__hint">
        {hint}
      </p>
    </div>
  )
}

function SelectInput({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: string
  options: { value: string; label: string }[]
  onChange: (value: string) => void
}) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}

import { useState, type DragEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { moved, newItem, type RubricDraft, type RubricItemDraft } from './rubric-draft'
import { NumberInput, SelectInput, TextInput } from './rubric-inputs'
import '../admin.i18n'

interface RubricItemsProps {
  draft: RubricDraft
  onChange: (draft: RubricDraft) => void
  disabled: boolean
}

/** The rubric's items in order: moved by dragging, or by the keyboard with Move up / Move down, and announced. */
export function RubricItems({ draft, onChange, disabled }: RubricItemsProps) {
  const { t } = useTranslation('admin')
  const [dragging, setDragging] = useState<number | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const setItem = (index: number, item: Partial<RubricItemDraft>) =>
    onChange({ ...draft, items: draft.items.map((entry, at) => (at === index ? { ...entry, ...item } : entry)) })
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
    <>
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
              <RubricItemActions
                index={index}
                count={draft.items.length}
                onMove={(to) => moveItem(index, to)}
                onRemove={() => onChange({ ...draft, items: draft.items.filter((_, at) => at !== index) })}
              />
            </div>
            <RubricItemFields
              item={item}
              index={index}
              groups={draft.groups}
              onChange={(patch) => setItem(index, patch)}
            />
          </li>
        ))}
      </ol>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <Button onClick={() => onChange({ ...draft, items: [...draft.items, newItem()] })}>
        {t('written.rubric.add_item')}
      </Button>
    </>
  )
}

interface RubricItemActionsProps {
  index: number
  count: number
  /** Moves the item to this place. */
  onMove: (to: number) => void
  onRemove: () => void
}

function RubricItemActions({ index, count, onMove, onRemove }: RubricItemActionsProps) {
  const { t } = useTranslation('admin')
  return (
    <span className="rubric__item-actions">
      <Button
        small
        disabled={index === 0}
        aria-label={t('written.rubric.move_up', { number: index + 1 })}
        onClick={() => onMove(index - 1)}
      >
        ↑
      </Button>
      <Button
        small
        disabled={index === count - 1}
        aria-label={t('written.rubric.move_down', { number: index + 1 })}
        onClick={() => onMove(index + 1)}
      >
        ↓
      </Button>
      <Button
        small
        variant="danger"
        aria-label={t('written.rubric.remove_item', { number: index + 1 })}
        onClick={onRemove}
      >
        {t('written.rubric.remove')}
      </Button>
    </span>
  )
}

interface RubricItemFieldsProps {
  item: RubricItemDraft
  index: number
  groups: RubricDraft['groups']
  onChange: (patch: Partial<RubricItemDraft>) => void
}

/** One item's points, group, and title and explanation in each language. */
function RubricItemFields({ item, index, groups, onChange }: RubricItemFieldsProps) {
  const { t } = useTranslation('admin')
  const number = index + 1
  return (
    <>
      <div className="admin-grid">
        <NumberInput
          label={t('written.rubric.points', { number })}
          hint={t('written.rubric.points_hint')}
          value={item.points}
          onChange={(points) => onChange({ points })}
        />
        {groups.length > 0 && (
          <SelectInput
            label={t('written.rubric.group_of', { number })}
            value={item.group}
            options={[
              { value: '', label: t('written.rubric.no_group') },
              ...groups.map((group, at) => ({
                value: group.key,
                label: group.title.en || group.title.ne || t('written.rubric.group', { number: at + 1 }),
              })),
            ]}
            onChange={(group) => onChange({ group })}
          />
        )}
      </div>
      <div className="admin-grid">
        <TextInput
          label={t('written.rubric.title_en', { number })}
          lang="en"
          value={item.title.en}
          onChange={(en) => onChange({ title: { ...item.title, en } })}
        />
        <TextInput
          label={t('written.rubric.title_ne', { number })}
          lang="ne"
          value={item.title.ne}
          onChange={(ne) => onChange({ title: { ...item.title, ne } })}
        />
        <TextInput
          multiline
          label={t('written.rubric.explanation_en', { number })}
          lang="en"
          value={item.explanation.en}
          onChange={(en) => onChange({ explanation: { ...item.explanation, en } })}
        />
        <TextInput
          multiline
          label={t('written.rubric.explanation_ne', { number })}
          lang="ne"
          value={item.explanation.ne}
          onChange={(ne) => onChange({ explanation: { ...item.explanation, ne } })}
        />
      </div>
    </>
  )
}

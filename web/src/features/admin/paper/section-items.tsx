import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { RichPreview } from '../../../components/ui/rich-text'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import type { BankFacets } from '../bank/bank.api'
import { DrawEditor } from './draw-editor'
import type { FixedDraft, ItemDraft, PassageDraft } from './paper-draft'
import { passageQueries } from '../bank/passages.api'
import { useQuery } from '@tanstack/react-query'
import type { PathErrors } from './paper-field'
import '../bank/bank.i18n'

const ITEM_PREVIEW_LENGTH = 80

interface SectionItemsProps {
  items: ItemDraft[]
  /** `sections.S`, the server's path of the section. */
  path: string
  errors: PathErrors
  facets: BankFacets | undefined
  frozen: boolean
  onChange: (items: ItemDraft[]) => void
}

/** A section's fixed questions and draws in order, each movable and removable. */
export function SectionItems({ items, path, errors, facets, frozen, onChange }: SectionItemsProps) {
  const { t } = useTranslation('bank')
  const setItem = (at: number, item: ItemDraft) =>
    onChange(items.map((other, position) => (position === at ? item : other)))
  const removeItem = (at: number) => onChange(items.filter((_, position) => position !== at))
  const moveItem = (at: number, by: -1 | 1) => {
    const moved = [...items]
    const [item] = moved.splice(at, 1)
    moved.splice(at + by, 0, item!)
    onChange(moved)
  }
  // "Draw 2", "question 3": each kind numbered on its own, in the section's order.
  const ordinals = items.map((item, at) => items.slice(0, at + 1).filter((other) => other.kind === item.kind).length)

  if (items.length === 0) return <p className="muted">{t('paper.no_items')}</p>
  return (
    <ol className="paper-items">
      {items.map((item, at) => {
        const itemPath = `${path}.items.${at}`
        const move = <ItemMoveButtons at={at} count={items.length} onMove={(by) => moveItem(at, by)} />
        if (item.kind === 'draw') {
          return (
            <li key={item.key}>
              <DrawEditor
                draw={item}
                path={itemPath}
                name={t('paper.draw_n', { n: ordinals[at] })}
                errors={errors}
                facets={facets}
                frozen={frozen}
                onChange={(draw) => setItem(at, draw)}
                onRemove={() => removeItem(at)}
              />
              <span className="actions paper-item__move">{move}</span>
            </li>
          )
        }
        if (item.kind === 'passage')
          return (
            <PassageItem
              key={item.key}
              item={item}
              ordinal={ordinals[at]!}
              error={errors(itemPath) ?? errors(`${itemPath}.passage_id`)}
              move={move}
              onRemove={() => removeItem(at)}
            />
          )
        return (
          <FixedItem
            key={item.key}
            item={item}
            ordinal={ordinals[at]!}
            error={errors(itemPath) ?? errors(`${itemPath}.question_id`)}
            move={move}
            onRemove={() => removeItem(at)}
          />
        )
      })}
    </ol>
  )
}

function ItemMoveButtons({ at, count, onMove }: { at: number; count: number; onMove: (by: -1 | 1) => void }) {
  const { t } = useTranslation('bank')
  return (
    <>
      <Button small disabled={at === 0} onClick={() => onMove(-1)} aria-label={t('paper.item_up', { n: at + 1 })}>
        ↑
      </Button>
      <Button
        small
        disabled={at === count - 1}
        onClick={() => onMove(1)}
        aria-label={t('paper.item_down', { n: at + 1 })}
      >
        ↓
      </Button>
    </>
  )
}

interface FixedItemProps {
  item: FixedDraft
  /** Its number among the section's fixed questions. */
  ordinal: number
  error: string | null
  move: ReactNode
  onRemove: () => void
}

function FixedItem({ item, ordinal, error, move, onRemove }: FixedItemProps) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const label = item.text ? (
    <RichPreview text={item.text} maxLength={ITEM_PREVIEW_LENGTH} />
  ) : (
    t('paper.question_id', { id: formatNumber(item.question_id, language) })
  )
  return (
    <li className="paper-item paper-fixed">
      <span className="paper-fixed__text">
        <span className="muted">#{formatNumber(item.question_id, language)}</span> {label}
        {error && <span className="field__error paper-fixed__error">{error}</span>}
      </span>
      <span className="actions">
        {move}
        <Button
          small
          variant="danger"
          onClick={onRemove}
          aria-label={t('paper.remove_named', { name: t('paper.fixed_n', { n: ordinal }) })}
        >
          {t('paper.remove')}
        </Button>
      </span>
    </li>
  )
}

interface PassageItemProps {
  item: PassageDraft
  ordinal: number
  error: string | null
  move: ReactNode
  onRemove: () => void
}

/** A passage as one item of the section: its text and how many questions it brings, in its order. */
function PassageItem({ item, ordinal, error, move, onRemove }: PassageItemProps) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  // A passage loaded with the paper carries its id only: its text is the passage's own.
  const passage = useQuery({ ...passageQueries.one(item.passage_id), enabled: item.text === null })
  const text = item.text ?? passage.data?.text ?? null
  const name = t('paper.passage_n', { n: formatNumber(ordinal, language) })
  return (
    <li className="paper-item paper-fixed paper-passage">
      <span className="paper-fixed__text">
        <strong>{name}</strong>{' '}
        <span className="muted">
          {t('paper.passage_questions', {
            count: item.question_ids.length,
            n: formatNumber(item.question_ids.length, language),
          })}
        </span>{' '}
        {text && <RichPreview text={text} maxLength={ITEM_PREVIEW_LENGTH} />}
        {error && <span className="field__error paper-fixed__error">{error}</span>}
      </span>
      <span className="actions">
        {move}
        <Button small variant="danger" onClick={onRemove} aria-label={t('paper.remove_named', { name })}>
          {t('paper.remove')}
        </Button>
      </span>
    </li>
  )
}

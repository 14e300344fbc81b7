import { DIFFICULTIES } from '@quiz/contracts/rules/difficulty'
import { canMake } from '@quiz/contracts/rules/passage-sizes'
import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/form/field'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { RichPreview } from '../../../components/ui/rich-text'
import { parseTags } from '../bank/bank-draft'
import type { BankFacets } from '../bank/bank.api'
import { drawFilterKey, type DrawDraft } from './paper-draft'
import { PaperInput, type PathErrors } from './paper-field'
import { passagePoolQuery, poolQuery, type PoolFilters } from './paper.api'
import { useDebounced } from './use-debounced'
import '../bank/bank.i18n'

interface DrawEditorProps {
  draw: DrawDraft
  /** `sections.S.items.I`, the server's path of this item. */
  path: string
  /** "Draw 2" in its section. */
  name: string
  errors: PathErrors
  facets: BankFacets | undefined
  /** A frozen paper: the draw lists the questions it drew for everyone. */
  frozen: boolean
  onChange: (draw: DrawDraft) => void
  onRemove: () => void
}

const DRAWN_PREVIEW_LENGTH = 80

/** A draw: its filters and count, and how many questions match them now ("32 match"). */
export function DrawEditor({ draw, path, name, errors, facets, frozen, onChange, onRemove }: DrawEditorProps) {
  const { t } = useTranslation('bank')
  const id = useId()
  const set = (patch: Partial<DrawDraft>) => onChange({ ...draw, ...patch })
  const itemError = errors(path) ?? errors(`${path}.draw`)
  return (
    <fieldset className="paper-item paper-draw" aria-invalid={itemError ? true : undefined}>
      <legend>{name}</legend>
      {itemError && <p className="field__error">{itemError}</p>}
      <div className="paper-draw__fields">
        <PaperInput
          label={t('paper.draw_topic')}
          value={draw.topic}
          onChange={(topic) => set({ topic })}
          error={errors(`${path}.draw.topic`)}
          list={`${id}-topics`}
          hint={t('paper.draw_any')}
        />
        <PaperInput
          label={t('paper.draw_tags')}
          value={draw.tags}
          onChange={(tags) => set({ tags })}
          error={errors(`${path}.draw.tags`)}
          hint={t('paper.draw_tags_hint')}
        />
        <Field label={t('paper.draw_difficulty')} error={errors(`${path}.draw.difficulty`)}>
          {(control) => (
            <select
              {...control}
              value={draw.difficulty}
              onChange={(event) => set({ difficulty: event.target.value as DrawDraft['difficulty'] })}
            >
              <option value="">{t('filters.any')}</option>
              {DIFFICULTIES.map((difficulty) => (
                <option key={difficulty} value={difficulty}>
                  {t(`difficulty.${difficulty}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <PaperInput
          label={t('paper.draw_source')}
          value={draw.source}
          onChange={(source) => set({ source })}
          error={errors(`${path}.draw.source`)}
          list={`${id}-sources`}
          hint={t('paper.draw_any')}
        />
        <PaperInput
          label={t('paper.draw_count')}
          value={draw.count}
          onChange={(count) => set({ count })}
          error={errors(`${path}.draw.count`)}
          numeric
          className="paper-number"
        />
      </div>
      <div className="checkbox">
        <input
          id={`${id}-passages`}
          type="checkbox"
          checked={draw.passages}
          onChange={(event) => set({ passages: event.target.checked })}
          aria-describedby={`${id}-passages-hint`}
        />
        <label htmlFor={`${id}-passages`}>{t('paper.draw_passages')}</label>
        <span id={`${id}-passages-hint`} className="field__hint">
          {t('paper.draw_passages_hint')}
        </span>
      </div>
      {errors(`${path}.draw.passages`) && <p className="field__error">{errors(`${path}.draw.passages`)}</p>}
      <datalist id={`${id}-topics`}>
        {facets?.topics.map((facet) => (
          <option key={facet.topic} value={facet.topic} />
        ))}
      </datalist>
      <datalist id={`${id}-sources`}>
        {facets?.sources.map((facet) => (
          <option key={facet.source} value={facet.source} />
        ))}
      </datalist>
      {frozen && <DrawnQuestions draw={draw} name={name} />}
      <div className="paper-item__foot">
        <PoolSize draw={draw} />
        <Button small variant="danger" onClick={onRemove} aria-label={t('paper.remove_named', { name })}>
          {t('paper.remove')}
        </Button>
      </div>
    </fieldset>
  )
}

/**
 * The pool as the author edits: the bank's count for these filters (every tag, as the draw takes them), asked when
 * typing pauses; the server's count from the last save stands in until the answer comes.
 */
function PoolSize({ draw }: { draw: DrawDraft }) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const tags = parseTags(draw.tags)
  // Debounced as one string: an object made at each render would never be the same value twice.
  const filters = useDebounced(
    JSON.stringify({ topic: draw.topic.trim(), tags, difficulty: draw.difficulty, source: draw.source.trim() }),
    400,
  )
  const live = useQuery({ ...poolQuery(JSON.parse(filters) as PoolFilters), enabled: !draw.passages })
  if (draw.passages) return <PassagePoolSize draw={draw} filters={JSON.parse(filters) as PoolFilters} />
  const saved = draw.savedFilters === drawFilterKey(draw) ? draw.savedPool : null
  const pool = live.data ?? saved
  const count = Number(draw.count)
  if (pool === null || pool === undefined) return <p className="paper-pool muted">{t('paper.pool_counting')}</p>
  const short = Number.isInteger(count) && count > pool
  return (
    <p className={short ? 'paper-pool paper-pool--short' : 'paper-pool'} aria-live="polite">
      {t('paper.pool', { count: pool, n: formatNumber(pool, language) })}
      {short && ` ${t('paper.pool_short', { count, n: formatNumber(count, language) })}`}
    </p>
  )
}

/**
 * A draw of whole passages: how many questions its pool's whole passages give, and whether its count is a sum of
 * whole passages (the save refuses one that is not; API.md "Question types").
 */
function PassagePoolSize({ draw, filters }: { draw: DrawDraft; filters: PoolFilters }) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const sizes = useQuery(passagePoolQuery(filters)).data
  if (!sizes) return <p className="paper-pool muted">{t('paper.pool_counting')}</p>
  const total = sizes.reduce((sum, size) => sum + size, 0)
  const count = Number(draw.count)
  const short = Number.isInteger(count) && count > 0 && !canMake(sizes, count)
  const n = (value: number) => formatNumber(value, language)
  const listed = [...sizes]
    .sort((a, b) => a - b)
    .map(n)
    .join(', ')
  return (
    <p className={short ? 'paper-pool paper-pool--short' : 'paper-pool'} aria-live="polite">
      {t('paper.passage_pool', { count: sizes.length, n: n(sizes.length), questions: n(total) })}
      {sizes.length > 0 && ` (${t('paper.passage_sizes', { sizes: listed })})`}
      {short && ` ${t('paper.passage_pool_short', { count, n: n(count) })}`}
    </p>
  )
}

/** What a frozen paper's draw took for everyone, as saved; edited filters are drawn again when the paper is saved. */
function DrawnQuestions({ draw, name }: { draw: DrawDraft; name: string }) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  if (draw.drawn.length === 0) return <p className="muted">{t('paper.not_drawn')}</p>
  if (draw.savedFilters !== drawFilterKey(draw) || Number(draw.count) !== draw.drawn.length)
    return <p className="muted">{t('paper.drawn_changed')}</p>
  return (
    <div className="paper-drawn">
      <p>
        {t('paper.drawn_heading')} ({formatNumber(draw.drawn.length, language)})
      </p>
      <ol aria-label={`${t('paper.drawn_heading')}: ${name}`}>
        {draw.drawn.map((question) => (
          <li key={question.id}>
            <RichPreview text={question.text} maxLength={DRAWN_PREVIEW_LENGTH} />
          </li>
        ))}
      </ol>
    </div>
  )
}

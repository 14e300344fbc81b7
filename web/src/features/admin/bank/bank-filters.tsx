import { DIFFICULTIES } from '@quiz/contracts/rules/difficulty'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { useLanguage, scriptLang } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { noFilters, type BankFacets, type BankFilters, type DifficultyFilter } from './bank.api'
import './bank.i18n'
import { TableScroll } from '../ui'

interface BankFilterFieldsProps {
  filters: BankFilters
  onChange: (filters: BankFilters) => void
  /** The facets name the topics, tags and sources there are to choose; until they load, the lists are short. */
  facets: BankFacets | undefined
  /** Different ids for the bank page's filters and a paper's picker on one screen. */
  idPrefix?: string
}

/**
 * Search and filters over the bank: the bank page and a paper's "pick from the bank" use the same. Lists apply at
 * once; the search text applies on its button (or Enter), so typing does not ask the server at every key.
 */
export function BankFilterFields({ filters, onChange, facets }: BankFilterFieldsProps) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const id = useId()
  const [search, setSearch] = useState(filters.search)
  const n = (value: number) => formatNumber(value, language)
  const set = (patch: Partial<BankFilters>) => onChange({ ...filters, ...patch })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    set({ search: search.trim() })
  }
  const clear = () => {
    setSearch('')
    onChange(noFilters)
  }

  // A value chosen before (from the URL) stays choosable even when the facets do not list it.
  const withChosen = (values: string[], chosen: string) =>
    chosen && !values.includes(chosen) ? [chosen, ...values] : values
  const topics = withChosen(facets?.topics.map((facet) => facet.topic) ?? [], filters.topic)
  const tags = withChosen(facets?.tags.map((facet) => facet.tag) ?? [], filters.tag)
  const sources = withChosen(facets?.sources.map((facet) => facet.source) ?? [], filters.source)
  const totalOf = (list: { total: number }[] | undefined, index: number) =>
    list?.[index] ? ` (${n(list[index].total)})` : ''

  return (
    <form className="admin-toolbar bank-filters" role="search" onSubmit={submit}>
      <div className="field admin-search">
        <label htmlFor={`${id}-search`}>{t('filters.search')}</label>
        <input id={`${id}-search`} type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
      </div>
      <Button type="submit">{t('filters.search_button')}</Button>
      <div className="field">
        <label htmlFor={`${id}-topic`}>{t('filters.topic')}</label>
        <select id={`${id}-topic`} value={filters.topic} onChange={(event) => set({ topic: event.target.value })}>
          <option value="">{t('filters.any')}</option>
          {topics.map((topic, index) => (
            <option key={topic} value={topic} lang={scriptLang(topic, language)}>
              {(topic || t('filters.no_topic')) + totalOf(facets?.topics, index)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-tag`}>{t('filters.tag')}</label>
        <select id={`${id}-tag`} value={filters.tag} onChange={(event) => set({ tag: event.target.value })}>
          <option value="">{t('filters.any')}</option>
          {tags.map((tag, index) => (
            <option key={tag} value={tag}>
              {tag + totalOf(facets?.tags, index)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-difficulty`}>{t('filters.difficulty')}</label>
        <select
          id={`${id}-difficulty`}
          value={filters.difficulty}
          onChange={(event) => set({ difficulty: event.target.value as DifficultyFilter })}
        >
          <option value="">{t('filters.any')}</option>
          {DIFFICULTIES.map((difficulty) => (
            <option key={difficulty} value={difficulty}>
              {t(`difficulty.${difficulty}`)}
            </option>
          ))}
          <option value="none">{t('difficulty.unrated')}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-source`}>{t('filters.source')}</label>
        <select id={`${id}-source`} value={filters.source} onChange={(event) => set({ source: event.target.value })}>
          <option value="">{t('filters.any')}</option>
          {sources.map((source, index) => (
            <option key={source} value={source}>
              {source + totalOf(facets?.sources, index)}
            </option>
          ))}
        </select>
      </div>
      <div className="checkbox bank-filters__unused">
        <input
          id={`${id}-unused`}
          type="checkbox"
          checked={filters.unused}
          onChange={(event) => set({ unused: event.target.checked })}
        />
        <label htmlFor={`${id}-unused`}>{t('filters.unused')}</label>
      </div>
      <div className="checkbox bank-filters__unused">
        <input
          id={`${id}-no-description`}
          type="checkbox"
          checked={filters.noDescription}
          onChange={(event) => set({ noDescription: event.target.checked })}
        />
        <label htmlFor={`${id}-no-description`}>{t('filters.no_description')}</label>
      </div>
      <Button onClick={clear}>{t('filters.clear')}</Button>
    </form>
  )
}

/** Topics × difficulty: what the bank holds, so an author sees which draws it can fill (WEB.md). */
export function FacetsTable({ facets }: { facets: BankFacets }) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  if (facets.topics.length === 0) return null
  return (
    <TableScroll label={t('facets.caption', { total: n(facets.total) })}>
      <table className="admin-table bank-facets">
        <caption>{t('facets.caption', { total: n(facets.total) })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('facets.topic')}</th>
            <th scope="col" className="admin-num">
              {t('difficulty.easy')}
            </th>
            <th scope="col" className="admin-num">
              {t('difficulty.medium')}
            </th>
            <th scope="col" className="admin-num">
              {t('difficulty.hard')}
            </th>
            <th scope="col" className="admin-num">
              {t('difficulty.unrated')}
            </th>
            <th scope="col" className="admin-num">
              {t('facets.total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {facets.topics.map((facet) => (
            <tr key={facet.topic}>
              <th scope="row" lang={scriptLang(facet.topic, language)}>
                {facet.topic || t('filters.no_topic')}
              </th>
              <td className="admin-num">{n(facet.easy)}</td>
              <td className="admin-num">{n(facet.medium)}</td>
              <td className="admin-num">{n(facet.hard)}</td>
              <td className="admin-num">{n(facet.unrated)}</td>
              <td className="admin-num">{n(facet.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  )
}

import { useSearchParams } from 'react-router'
import { filterQuery, type BankFilters, type DifficultyFilter } from './bank.api'

/** The filters live in the URL, so a reload, a link from an import (`ids=`) and Back keep them. */
export function useUrlFilters(): [BankFilters, number, (filters: BankFilters, page?: number) => void] {
  const [params, setParams] = useSearchParams()
  const filters: BankFilters = {
    search: params.get('search') ?? '',
    topic: params.get('topic') ?? '',
    tag: params.get('tag') ?? '',
    difficulty: (params.get('difficulty') ?? '') as DifficultyFilter,
    source: params.get('source') ?? '',
    unused: params.get('unused') === 'true',
    noDescription: params.get('no_description') === 'true',
    ids: params.get('ids') ?? '',
  }
  const page = Math.max(1, Number(params.get('page')) || 1)
  const set = (next: BankFilters, nextPage = 1) => {
    const query = new URLSearchParams(filterQuery(next))
    if (nextPage > 1) query.set('page', String(nextPage))
    setParams(query)
  }
  return [filters, page, set]
}

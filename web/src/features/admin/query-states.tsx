import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'

/** A screen's texts of one section of its namespace, e.g. `(key) => t(\`learners.${key}\`)`. */
export type SectionText<Key extends string> = (key: Key, values?: Record<string, string>) => string

export type StateKey = 'loading' | 'load_failed' | 'empty'

interface QueryStatesProps<Data> {
  query: UseQueryResult<Data>
  isEmpty: (data: Data) => boolean
  text: SectionText<StateKey>
  children: (data: Data) => ReactNode
}

/** Loading, failed, nothing yet, or the data: the states every admin list and report goes through, in that order. */
export function QueryStates<Data>({ query, isEmpty, text, children }: QueryStatesProps<Data>) {
  if (query.isPending) return <Loading label={text('loading')} />
  if (query.isError) return <Alert kind="error">{text('load_failed')}</Alert>
  if (isEmpty(query.data)) return <p className="card admin-empty">{text('empty')}</p>
  return children(query.data)
}

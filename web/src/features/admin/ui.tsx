// The pieces every admin screen is built from. One module on purpose: every admin route imports it, so it shares
// the admin's chunk instead of adding chunks whose names the first screen's preload map would carry.
import type { UseQueryResult } from '@tanstack/react-query'
import { useEffect, useRef, type FormEventHandler, type ReactNode } from 'react'
import { FormProvider, type FieldValues, type UseFormReturn } from 'react-hook-form'
import { Alert } from '../../components/ui/alert'
import { FieldMessages } from '../../components/ui/form/field-message'
import { TextField } from '../../components/ui/form/fields'
import { Loading } from '../../components/ui/loading'
import { Pager } from '../../components/ui/pager'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'

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

export interface Column {
  label: ReactNode
  /** Figures are right-aligned, header and cells alike. */
  numeric?: boolean
}

/** A table's header row: every cell a column header, numeric ones aligned with their figures. */
export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map(({ label, numeric }, index) => (
          <th key={index} scope="col" className={numeric ? 'admin-num' : undefined}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  )
}

interface PagedTableProps<Row> {
  query: UseQueryResult<{ count: number; results: Row[] }>
  pageSize: number
  page: number
  onPage: (page: number) => void
  /** The section's `loading`, `load_failed`, `empty`, `total` ({{total}}), `previous`, `next` and `page` texts. */
  text: SectionText<StateKey | 'total' | 'previous' | 'next' | 'page'>
  columns: readonly Column[]
  className?: string
  children: (row: Row) => ReactNode
}

/** An admin's long list, a page at a time: its total, the table, and Previous / Next. */
export function PagedTable<Row>({
  query,
  pageSize,
  page,
  onPage,
  text,
  columns,
  className,
  children,
}: PagedTableProps<Row>) {
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language, { useGrouping: false })
  return (
    <QueryStates query={query} isEmpty={(data) => data.count === 0} text={text}>
      {(data) => {
        const pages = Math.max(1, Math.ceil(data.count / pageSize))
        return (
          <>
            <p className="muted">{text('total', { total: n(data.count) })}</p>
            <div className="admin-table-wrap">
              <table className={className ? `admin-table ${className}` : 'admin-table'}>
                <TableHead columns={columns} />
                <tbody>{data.results.map(children)}</tbody>
              </table>
            </div>
            <Pager
              page={page}
              pages={pages}
              onPage={onPage}
              previous={text('previous')}
              next={text('next')}
              label={text('page', { page: n(page), pages: n(pages) })}
            />
          </>
        )
      }}
    </QueryStates>
  )
}

interface SubmitButtonProps {
  /** The form is being sent: the button is disabled, and says `busy` when given. */
  pending: boolean
  busy?: ReactNode
  disabled?: boolean
  children: ReactNode
}

/** A form's primary button, which cannot send the form twice. */
export function SubmitButton({ pending, busy, disabled, children }: SubmitButtonProps) {
  return (
    <button type="submit" className="btn btn--primary" disabled={pending || disabled}>
      {pending && busy ? busy : children}
    </button>
  )
}

/**
 * The server's paths of one English/Nepali pair ("title", "options.2.text") and the fields that show them: messages
 * about the pair as a whole and about `.en` under English (the required one), those about `.ne` under Nepali.
 */
export const pairFields = (path: string): Record<string, string> => ({
  [path]: `${path}.en`,
  [`${path}.en`]: `${path}.en`,
  [`${path}.ne`]: `${path}.ne`,
})

interface BilingualFieldsProps {
  labels: { en: string; ne: string }
  /** The `{en, ne}` pair's name in the form, which is also its path in the request ("title", "options.2.text"). */
  name: string
  /** Textareas of this many rows; inputs when not given. */
  rows?: number
}

/** One text in English and Nepali, side by side where the layout has room: the shape of every text a quiz holds. */
export function BilingualFields({ labels, name, rows }: BilingualFieldsProps) {
  const lines = rows === undefined ? {} : { multiline: true, rows }
  return (
    <>
      <TextField name={`${name}.en`} label={labels.en} {...lines} />
      <TextField name={`${name}.ne`} label={labels.ne} {...lines} lang="ne" />
    </>
  )
}

interface AdminFormProps<T extends FieldValues, Output> {
  form: UseFormReturn<T, unknown, Output>
  /** `form.handleSubmit(save, refused)`. */
  onSubmit: FormEventHandler<HTMLFormElement>
  /** Shows the form's messages (the contracts' English texts) in the reader's language. */
  messages: (text: string) => string
  /** Something new each time a save is refused (by the form's checks or the server): the keyboard then goes to the first field with a message, which may be far above the Save button. */
  refusal: unknown
  className?: string
  /** The browser's own check of `required` fields, for a form whose only rule is that. */
  nativeValidation?: boolean
  children: ReactNode
}

/** A react-hook-form form whose fields (TextField, CheckboxField, BilingualFields...) find it by context. */
export function AdminForm<T extends FieldValues, Output = T>({
  form,
  onSubmit,
  messages,
  refusal,
  className,
  nativeValidation,
  children,
}: AdminFormProps<T, Output>) {
  const element = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (refusal) element.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [refusal])
  return (
    <FormProvider {...form}>
      <FieldMessages.Provider value={messages}>
        <form ref={element} className={className} onSubmit={onSubmit} noValidate={!nativeValidation}>
          {children}
        </form>
      </FieldMessages.Provider>
    </FormProvider>
  )
}

import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../../../lib/paths'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { preview } from '../../../lib/preview'
import { AdminNav } from '../admin-nav'
import { ConfirmDeleteDialog } from '../confirm-dialog'
import { ApiError } from '../../../api/api-error'
import { PagedTable } from '../ui'
import { BankFilterFields, FacetsTable } from './bank-filters'
import { AddToQuiz } from './add-to-quiz'
import { BANK_PAGE_SIZE, bankQueries, downloadBank, filterQuery, useDeleteBankQuestion, type BankRow } from './bank.api'
import { BankQuestionEditor } from './bank-question-editor'
import { BANK_PREVIEW_LENGTH, BankTableRow } from './bank-row'
import { useUrlFilters } from './bank-url-filters'
import '../admin.css'
import '../admin.i18n'
import './bank.css'
import './bank.i18n'

type Editor = { id: number | null; run: number } | null

/** /admin/bank: every question of the institute, its filters and facets, New / Edit, and "add to a quiz". */
export function Component() {
  const { t } = useTranslation('bank')
  const pick = useBilingual()
  const language = useLanguage()
  const [filters, page, setFilters] = useUrlFilters()
  const list = useQuery({ ...bankQueries.list(filters, page), placeholderData: (previous) => previous })
  const facets = useQuery(bankQueries.facets())
  const [selected, setSelected] = useState<number[]>([])
  const [editor, setEditor] = useState<Editor>(null)
  const [saved, setSaved] = useState(false)
  const [download, setDownload] = useState<'idle' | 'busy' | 'failed'>('idle')
  const [toDelete, setToDelete] = useState<BankRow | null>(null)
  const [deleted, setDeleted] = useState<'deleted' | { inUse: string[] } | 'failed' | null>(null)
  const remove = useDeleteBankQuestion()

  const confirmDelete = () => {
    if (!toDelete) return
    const row = toDelete
    remove.mutate(row.id, {
      onSuccess: () => {
        setSelected((current) => current.filter((id) => id !== row.id))
        setDeleted('deleted')
      },
      onError: (error) => {
        // 409 question_in_use: a paper names it as a fixed item, which is what the row's "used in" lists.
        const inUse = error instanceof ApiError && error.status === 409 && error.code === 'question_in_use'
        setDeleted(inUse ? { inUse: row.used_in.map((use) => pick(use.title)) } : 'failed')
      },
      onSettled: () => setToDelete(null),
    })
  }

  const toggle = (id: number, on: boolean) =>
    setSelected((current) => (on ? [...current, id] : current.filter((other) => other !== id)))
  const openEditor = (id: number | null) => {
    setSaved(false)
    setEditor((current) => ({ id, run: (current?.run ?? 0) + 1 }))
  }
  const startDownload = async () => {
    setDownload('busy')
    try {
      await downloadBank(filters)
      setDownload('idle')
    } catch {
      setDownload('failed')
    }
  }

  return (
    <div className="admin bank">
      <AdminNav />
      <h1>{t('title')}</h1>
      <p className="actions">
        <Button variant="primary" onClick={() => openEditor(null)}>
          {t('new_question')}
        </Button>
        <Button disabled={download === 'busy'} onClick={startDownload}>
          {download === 'busy' ? t('exporting') : t('export')}
        </Button>
        <Link to={paths.adminBankPassages()}>{t('passages.link')}</Link>
      </p>
      {download === 'failed' && <Alert kind="error">{t('export_failed')}</Alert>}
      {saved && <Alert kind="success">{t('saved')}</Alert>}
      {deleted === 'deleted' && <Alert kind="success">{t('deleted')}</Alert>}
      {deleted === 'failed' && <Alert kind="error">{t('delete_failed')}</Alert>}
      {deleted !== null && typeof deleted === 'object' && (
        <Alert kind="error">{t('in_use', { quizzes: deleted.inUse.join(', ') })}</Alert>
      )}
      {editor && (
        <BankQuestionEditor
          key={editor.run}
          id={editor.id}
          onDone={(result) => {
            setEditor(null)
            setSaved(result === 'saved')
          }}
        />
      )}

      {facets.data && <FacetsTable facets={facets.data} />}
      <BankFilterFields
        key={filterQuery(filters)}
        filters={filters}
        facets={facets.data}
        onChange={(next) => setFilters(next)}
      />

      <AddToQuiz selected={selected} onAdded={() => setSelected([])} />

      <PagedTable
        label={t('title')}
        query={list}
        pageSize={BANK_PAGE_SIZE}
        page={page}
        onPage={(next) => setFilters(filters, next)}
        text={(key, values) => t(`list.${key}`, values)}
        className="bank-table"
        columns={[
          { label: <span className="visually-hidden">{t('list.select')}</span> },
          { label: t('list.question') },
          { label: t('list.topic') },
          { label: t('list.tags') },
          { label: t('list.difficulty') },
          { label: t('list.used_in') },
          { label: t('list.facility'), numeric: true },
          { label: <span className="visually-hidden">{t('list.edit')}</span> },
        ]}
      >
        {(row) => (
          <BankTableRow
            key={row.id}
            row={row}
            selected={selected.includes(row.id)}
            onSelect={(on) => toggle(row.id, on)}
            onEdit={() => openEditor(row.id)}
            onDelete={() => {
              setDeleted(null)
              setToDelete(row)
            }}
          />
        )}
      </PagedTable>
      <ConfirmDeleteDialog
        open={toDelete !== null}
        title={t('delete_title')}
        message={t('confirm_delete')}
        subject={toDelete ? preview(pick(toDelete.text), BANK_PREVIEW_LENGTH, language) : undefined}
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </div>
  )
}

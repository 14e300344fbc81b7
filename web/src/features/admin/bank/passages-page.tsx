import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { RichPreview } from '../../../components/ui/rich-text'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { paths } from '../../../lib/paths'
import { preview } from '../../../lib/preview'
import { AdminNav } from '../admin-nav'
import { ConfirmDeleteDialog } from '../confirm-dialog'
import { PagedTable } from '../ui'
import { PassageEditor } from './passage-editor'
import { PASSAGE_PAGE_SIZE, passageQueries, useDeletePassage, type Passage } from './passages.api'
import '../admin.css'
import '../admin.i18n'
import './bank.css'
import './bank.i18n'

const PASSAGE_PREVIEW_LENGTH = 160

type Editor = { passage: Passage | null; run: number } | null
type Deleted = 'deleted' | 'failed' | { inUse: string[] } | null

/** /admin/bank/passages: the bank's passages, searched and paged as the bank; New / Edit / Delete. */
export function Component() {
  const { t } = useTranslation('bank')
  const pick = useBilingual()
  const language = useLanguage()
  const [params, setParams] = useSearchParams()
  const search = params.get('search') ?? ''
  const page = Math.max(1, Number(params.get('page')) || 1)
  const [typed, setTyped] = useState(search)
  const list = useQuery({ ...passageQueries.list(search, page), placeholderData: (previous) => previous })
  const [editor, setEditor] = useState<Editor>(null)
  const [saved, setSaved] = useState(false)
  const [toDelete, setToDelete] = useState<Passage | null>(null)
  const [deleted, setDeleted] = useState<Deleted>(null)
  const remove = useDeletePassage()
  const n = (value: number) => formatNumber(value, language)

  const go = (nextSearch: string, nextPage: number) => {
    const next = new URLSearchParams()
    if (nextSearch.trim()) next.set('search', nextSearch.trim())
    if (nextPage > 1) next.set('page', String(nextPage))
    setParams(next)
  }
  const openEditor = (passage: Passage | null) => {
    setSaved(false)
    setDeleted(null)
    setEditor((current) => ({ passage, run: (current?.run ?? 0) + 1 }))
  }
  const confirmDelete = () => {
    if (!toDelete) return
    remove.mutate(toDelete.id, {
      onSuccess: () => setDeleted('deleted'),
      onError: (error) => {
        // 409 passage_in_use names the quizzes whose papers hold it: a sentence, not a code.
        if (error instanceof ApiError && error.code === 'passage_in_use') {
          const quizzes = (error.extra as { quizzes?: { title: { en: string; ne: string | null } }[] }).quizzes ?? []
          setDeleted({ inUse: quizzes.map((quiz) => pick(quiz.title)) })
        } else setDeleted('failed')
      },
      onSettled: () => setToDelete(null),
    })
  }

  return (
    <div className="admin bank passages">
      <AdminNav />
      <p>
        <Link to={paths.adminBank()}>{t('passages.back')}</Link>
      </p>
      <h1>{t('passages.title')}</h1>
      <p className="actions">
        <Button variant="primary" onClick={() => openEditor(null)}>
          {t('passages.new')}
        </Button>
      </p>
      {saved && <Alert kind="success">{t('passages.saved')}</Alert>}
      {deleted === 'deleted' && <Alert kind="success">{t('passages.deleted')}</Alert>}
      {deleted === 'failed' && <Alert kind="error">{t('passages.delete_failed')}</Alert>}
      {deleted !== null && typeof deleted === 'object' && (
        <Alert kind="error">{t('passages.in_use', { quizzes: deleted.inUse.join(', ') })}</Alert>
      )}
      {editor && (
        <PassageEditor
          key={editor.run}
          passage={editor.passage}
          onCancel={() => setEditor(null)}
          onSaved={() => {
            setEditor(null)
            setSaved(true)
          }}
        />
      )}
      <form
        role="search"
        className="actions"
        onSubmit={(event) => {
          event.preventDefault()
          go(typed, 1)
        }}
      >
        <label className="field">
          <span className="field__label">{t('passages.search')}</span>
          <input type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
        </label>
        <Button type="submit">{t('passages.search')}</Button>
      </form>
      <PagedTable
        label={t('passages.title')}
        query={list}
        pageSize={PASSAGE_PAGE_SIZE}
        page={page}
        onPage={(next) => go(search, next)}
        text={(key, values) => t(`passages.list.${key}`, values)}
        className="bank-table"
        columns={[
          { label: t('passages.list_text') },
          { label: t('passages.list_questions'), numeric: true },
          { label: <span className="visually-hidden">{t('passages.edit')}</span> },
        ]}
      >
        {(row) => (
          <tr key={row.id}>
            <td>
              <RichPreview text={row.text} maxLength={PASSAGE_PREVIEW_LENGTH} />
            </td>
            <td className="numeric">{n(row.question_ids.length)}</td>
            <td>
              <span className="actions">
                <Button small onClick={() => openEditor(row)}>
                  {t('passages.edit')}
                </Button>
                <Button
                  small
                  variant="danger"
                  onClick={() => {
                    setDeleted(null)
                    setToDelete(row)
                  }}
                >
                  {t('passages.delete')}
                </Button>
              </span>
            </td>
          </tr>
        )}
      </PagedTable>
      <ConfirmDeleteDialog
        open={toDelete !== null}
        title={t('passages.delete_title')}
        message={t('passages.confirm_delete')}
        subject={toDelete ? preview(pick(toDelete.text), PASSAGE_PREVIEW_LENGTH, language) : undefined}
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </div>
  )
}

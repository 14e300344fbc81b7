import type { Rescored } from '@quiz/contracts'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { errorLines, fieldErrorsOf } from '../../../components/ui/form/server-errors'
import { draftFromRubric, emptyRubric, toRubricInput, type RubricDraft } from './rubric-draft'
import { putRubric, rubricKey, rubricQueries } from './rubric.api'
import '../admin.i18n'

export type RubricProblem = { kind: 'changed' } | { kind: 'refused'; lines: string[] }

/**
 * A written question's rubric as the form edits it: loaded with the question, saved after it. A change that would
 * re-score marked answers is first run dry, and the admin confirms what it would do (WEB.md "Written answers").
 */
export function useRubricDraft(questionId: number | null, written: boolean) {
  const queryClient = useQueryClient()
  const stored = useQuery({ ...rubricQueries.rubric(questionId ?? 0), enabled: questionId !== null && written })
  const [draft, setDraft] = useState<RubricDraft>(emptyRubric)
  const [loadedFrom, setLoadedFrom] = useState<unknown>(null)
  // The stored rubric becomes the draft once, when it arrives (and again after a reload).
  if (stored.data && loadedFrom !== stored.data) {
    setLoadedFrom(stored.data)
    setDraft(draftFromRubric(stored.data))
  }
  const [confirming, setConfirming] = useState<{ questionId: number; rescored: Rescored } | null>(null)
  const [problem, setProblem] = useState<RubricProblem | null>(null)
  const [saving, setSaving] = useState(false)

  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.code === 'rubric_changed') setProblem({ kind: 'changed' })
    else setProblem({ kind: 'refused', lines: errorLines(fieldErrorsOf(error)) })
  }

  const commit = async (id: number) => {
    const result = await putRubric(id, toRubricInput(draft, false))
    queryClient.setQueryData(rubricKey(id), result.rubric)
    return result
  }

  /**
   * Saves the rubric of the question just saved: true once stored; false when it waits for the admin's
   * confirmation of the dry run, or was refused (`problem` says why).
   */
  const save = async (id: number, existed: boolean): Promise<boolean> => {
    setProblem(null)
    setSaving(true)
    try {
      if (existed) {
        const dry = await putRubric(id, toRubricInput(draft, true))
        if (dry.rescored.answers > 0) {
          setConfirming({ questionId: id, rescored: dry.rescored })
          return false
        }
      }
      await commit(id)
      return true
    } catch (error) {
      fail(error)
      return false
    } finally {
      setSaving(false)
    }
  }

  const confirm = async (): Promise<boolean> => {
    if (!confirming) return false
    setSaving(true)
    try {
      await commit(confirming.questionId)
      setConfirming(null)
      return true
    } catch (error) {
      setConfirming(null)
      fail(error)
      return false
    } finally {
      setSaving(false)
    }
  }

  const reload = async () => {
    setProblem(null)
    if (questionId === null) return
    await queryClient.invalidateQueries({ queryKey: rubricKey(questionId) })
  }

  return {
    draft,
    setDraft,
    loading: questionId !== null && written && stored.isPending,
    save,
    confirming,
    confirm,
    cancelConfirm: () => setConfirming(null),
    problem,
    reload,
    saving,
  }
}

/** What the dry run says a rubric change would do, and the admin's choice to go on. */
export function RescoreDialog({
  rescored,
  pending,
  onConfirm,
  onCancel,
}: {
  rescored: Rescored | null
  pending: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  const { t } = useTranslation('admin')
  return (
    <Dialog
      open={rescored !== null}
      title={t('written.rescore.title')}
      onClose={pending ? undefined : onCancel}
      actions={
        <>
          <Button onClick={onCancel} disabled={pending}>
            {t('common.cancel')}
          </Button>
          <Button variant="primary" onClick={onConfirm} disabled={pending}>
            {t('written.rescore.confirm')}
          </Button>
        </>
      }
    >
      {rescored && (
        <>
          <p>
            {t('written.rescore.answers', { count: rescored.answers })}{' '}
            {t('written.rescore.learners', { count: rescored.learners_notified })}
          </p>
          {rescored.rank_changes.length > 0 ? (
            <>
              <p>{t('written.rescore.ranks', { count: rescored.rank_changes.length })}</p>
              <ul className="admin-rescore-ranks">
                {rescored.rank_changes.slice(0, 20).map((change) => (
                  <li key={`${change.quiz_id}-${change.username}`}>
                    {t('written.rescore.rank_change', {
                      username: change.username,
                      from: change.old_rank,
                      to: change.new_rank,
                    })}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p>{t('written.rescore.no_ranks')}</p>
          )}
        </>
      )}
    </Dialog>
  )
}

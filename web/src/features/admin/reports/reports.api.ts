// What the quizzes' attempts and the admins' changes left behind (API.md "Institutions", "Audit log").
import type { AttemptSelection, AuditPage, QuizAttemptPage, QuizStatistics, StatisticsSelection } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../api/client'
import { adminKeys, type AuditFilters } from '../admin-keys'

export type {
  AttemptSelection,
  AuditPage,
  QuestionFlag,
  QuestionStatistics,
  QuizAttemptPage,
  QuizAttemptRow,
  QuizStatistics,
  StatisticsSelection,
} from '@quiz/contracts'
export type { AuditFilters } from '../admin-keys'

export const ATTEMPTS_PAGE_SIZE = 50
export const AUDIT_PAGE_SIZE = 50
/** A 50,000-attempt CSV is about 15 MB: more than the default 15 s allow on a slow connection. */
const CSV_TIMEOUT_MS = 300_000

export const reportQueries = {
  attempts: (quizId: number, which: AttemptSelection, page: number) =>
    queryOptions({
      queryKey: adminKeys.attempts(quizId, which, page),
      queryFn: () =>
        api.get<QuizAttemptPage>(
          `/admin/quizzes/${quizId}/attempts/?which=${which}&page=${page}&page_size=${ATTEMPTS_PAGE_SIZE}`,
        ),
    }),
  statistics: (quizId: number, which: StatisticsSelection) =>
    queryOptions({
      queryKey: adminKeys.statistics(quizId, which),
      queryFn: () => api.get<QuizStatistics>(`/admin/quizzes/${quizId}/statistics/?which=${which}`),
    }),
  audit: (filters: AuditFilters, page: number) =>
    queryOptions({
      queryKey: adminKeys.audit(filters, page),
      queryFn: () => {
        const query = new URLSearchParams({ page: String(page), page_size: String(AUDIT_PAGE_SIZE) })
        for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value)
        return api.get<AuditPage>(`/admin/audit/?${query}`)
      },
    }),
}

/** The CSV needs the bearer token, so a plain link cannot fetch it: fetch it, then hand the file to the browser. */
export async function downloadAttemptsCsv(quizId: number, which: AttemptSelection) {
  const file = await api.blob(`/admin/quizzes/${quizId}/attempts.csv?which=${which}`, { timeoutMs: CSV_TIMEOUT_MS })
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = `quiz-${quizId}-attempts-${which}.csv`
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked on the next task: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

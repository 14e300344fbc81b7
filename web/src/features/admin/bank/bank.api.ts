// The question bank as admins use it (API.md "Question bank"). Only the contracts' types cross into the bundle.
import type {
  AdminQuestion,
  BankFacets,
  BankList,
  BankListItem,
  BankQuestion as ContractBankQuestion,
  Bilingual,
  Difficulty,
} from '@quiz/contracts'
import { queryOptions, useMutation } from '@tanstack/react-query'
import { availableQuizKeys } from '../../../api/available-quizzes'
import { api } from '../../../api/client'
import { adminKeys, useInvalidate } from '../admin-keys'

export type { Bilingual, Difficulty }

export const BANK_PAGE_SIZE = 50

/** A difficulty filter: one of the three, `none` for unrated questions, '' for any. */
export type DifficultyFilter = Difficulty | 'none' | ''

/** The bank's filters as the page holds them (and as its URL carries them); empty strings mean "any". */
export interface BankFilters {
  search: string
  topic: string
  tag: string
  difficulty: DifficultyFilter
  source: string
  unused: boolean
  /** Questions with a picture no caption describes, which a blind learner cannot hear (API.md "Blind learners"). */
  noDescription: boolean
  /** `ids=1,2,3`: the questions an import just committed (WEB.md "Details of the third wave's screens"). */
  ids: string
}

export const noFilters: BankFilters = {
  search: '',
  topic: '',
  tag: '',
  difficulty: '',
  source: '',
  unused: false,
  noDescription: false,
  ids: '',
}

export type BankRow = BankListItem
export type BankPage = BankList
export type TopicFacet = BankFacets['topics'][number]
export type { BankFacets }

/** A bank question as the editor opens it (the quiz's own questions may lack the bank fields). */
export type BankQuestion = AdminQuestion &
  Partial<Pick<ContractBankQuestion, 'tags' | 'difficulty' | 'source' | 'needs_sight' | 'no_description'>>

/** The filters as a query string (without `?`), only those set: the bank list, the export and the pool counts. */
export function filterQuery(filters: Partial<BankFilters>): string {
  const params = new URLSearchParams()
  for (const key of ['search', 'topic', 'tag', 'difficulty', 'source', 'ids'] as const) {
    const value = filters[key]?.trim()
    if (value) params.set(key, value)
  }
  if (filters.unused) params.set('unused', 'true')
  if (filters.noDescription) params.set('no_description', 'true')
  return params.toString()
}

const withPage = (filters: BankFilters, page: number, pageSize: number) => {
  const query = filterQuery(filters)
  return `${query ? `${query}&` : ''}page=${page}&page_size=${pageSize}`
}

export const bankQueries = {
  list: (filters: BankFilters, page: number, pageSize = BANK_PAGE_SIZE) =>
    queryOptions({
      queryKey: adminKeys.bankList(filters, page, pageSize),
      queryFn: () => api.get<BankPage>(`/admin/bank/questions/?${withPage(filters, page, pageSize)}`),
    }),
  facets: () =>
    queryOptions({ queryKey: adminKeys.bankFacets(), queryFn: () => api.get<BankFacets>('/admin/bank/facets/') }),
  question: (id: number) =>
    queryOptions({
      queryKey: adminKeys.bankQuestion(id),
      queryFn: () => api.get<BankQuestion>(`/admin/bank/questions/${id}/`),
    }),
}

/** The export's address with the filters (API.md "Import": the filtered bank as xlsx). */
export const exportPath = (filters: BankFilters) => {
  const query = filterQuery(filters)
  return `/admin/bank/export.xlsx${query ? `?${query}` : ''}`
}

/** The xlsx needs the bearer token, so a plain link cannot fetch it: fetch it, then hand the file to the browser. */
export async function downloadBank(filters: BankFilters) {
  const file = await api.blob(exportPath(filters), { timeoutMs: 300_000 })
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = 'question-bank.xlsx'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** Adding bank questions to a quiz changes that quiz, the lists' counts and the bank's "used in". */
export function useAddToQuiz() {
  const invalidate = useInvalidate()
  return useMutation({
    // One at a time, in the order chosen: each is appended to the paper's last section.
    mutationFn: async ({ quizId, questionIds }: { quizId: number; questionIds: number[] }) => {
      const refused: number[] = []
      for (const question_id of questionIds) {
        try {
          await api.post(`/admin/quizzes/${quizId}/questions/`, { question_id })
        } catch {
          refused.push(question_id)
        }
      }
      return { added: questionIds.length - refused.length, refused }
    },
    onSuccess: (_result, { quizId }) =>
      invalidate(adminKeys.quiz(quizId), adminKeys.quizList(), adminKeys.bank, availableQuizKeys.all),
  })
}

export function useDeleteBankQuestion() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (id: number) => api.delete(`/admin/bank/questions/${id}/`),
    onSuccess: () => invalidate(adminKeys.bank),
  })
}

import type {
  AttemptSelection,
  AuditAction,
  AuditEntityType,
  PaymentStatus,
  Role,
  StatisticsSelection,
} from '@quiz/contracts'
import { useQueryClient, type QueryKey } from '@tanstack/react-query'

/** The audit log's filters as the page holds them; empty strings mean "any". */
export interface AuditFilters {
  actor: string
  entity_type: AuditEntityType | ''
  action: AuditAction | ''
  /** ISO instants: from inclusive, to exclusive. */
  from: string
  to: string
}

/**
 * Every admin query's key, in one tree so a change invalidates the branch it touches: a quiz's attempts and
 * statistics sit under the quiz, and every admin change also writes to the audit log.
 */
export const adminKeys = {
  all: ['admin'] as const,
  quizzes: ['admin', 'quizzes'] as const,
  quizList: () => [...adminKeys.quizzes, 'list'] as const,
  quiz: (id: number) => [...adminKeys.quizzes, id] as const,
  attempts: (quizId: number, which: AttemptSelection, page: number) =>
    [...adminKeys.quiz(quizId), 'attempts', which, page] as const,
  statistics: (quizId: number, which: StatisticsSelection) => [...adminKeys.quiz(quizId), 'statistics', which] as const,
  users: ['admin', 'users'] as const,
  learners: (search: string, page: number) => [...adminKeys.users, search, page] as const,
  // The institute's members: their roles are also the users list's `is_admin` and `is_marker`.
  members: ['admin', 'members'] as const,
  memberList: (search: string, role: Role | '', page: number) => [...adminKeys.members, search, role, page] as const,
  auditLog: ['admin', 'audit'] as const,
  audit: (filters: AuditFilters, page: number) => [...adminKeys.auditLog, filters, page] as const,
  plans: ['admin', 'plans'] as const,
  payments: (status: PaymentStatus | null, page: number) => ['admin', 'payments', status, page] as const,
  // The question bank: a question's change touches every list, the facets and the papers that draw from it.
  bank: ['admin', 'bank'] as const,
  bankList: (filters: object, page: number, pageSize: number) =>
    [...adminKeys.bank, 'list', filters, page, pageSize] as const,
  bankFacets: () => [...adminKeys.bank, 'facets'] as const,
  bankQuestion: (id: number) => [...adminKeys.bank, 'question', id] as const,
}

/**
 * After an admin change: the branches it touched go stale (the queries on screen refetch now), and the audit
 * log, which has a new entry.
 */
export function useInvalidate() {
  const queryClient = useQueryClient()
  return (...keys: QueryKey[]) =>
    Promise.all([...keys, adminKeys.auditLog].map((queryKey) => queryClient.invalidateQueries({ queryKey })))
}

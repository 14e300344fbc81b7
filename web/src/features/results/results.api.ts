import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type { BilingualText } from '../../i18n/use-bilingual'

// Wire shapes of API.md "Results" (types only: zod stays out of the web bundle).

export interface AttemptSummary {
  id: number
  attempt_number: number
  score: number
  completed_timestamp: string
}

export interface QuizResults {
  /** The quiz's id. */
  id: number
  title: BilingualText
  attempts: AttemptSummary[]
}

/** Reports name the SVG field svg_content (SPEC.md). */
export interface ReportPicture {
  svg_content: string
  caption: BilingualText
}

export interface ReportOption {
  id: number
  text: BilingualText
  is_correct: boolean
  image: ReportPicture | null
}

export interface ReportQuestion {
  id: number
  text: BilingualText
  hint: BilingualText | null
  topic: string
  image: ReportPicture | null
  options: ReportOption[]
}

export interface ReportCard {
  id: number
  attempt_number: number
  quiz: { id: number; title: BilingualText }
  score: number
  correct: number
  incorrect: number
  unanswered: number
  completed_timestamp: string
  questions: ReportQuestion[]
  answers: { question: number; selected_option: number | null }[]
}

export const resultKeys = {
  all: ['results'] as const,
  report: (attemptId: number) => ['results', attemptId] as const,
}

export const resultQueries = {
  list: () => queryOptions({ queryKey: resultKeys.all, queryFn: () => api.get<QuizResults[]>('/results/') }),
  // A finished attempt never changes: its report is cached for good.
  report: (attemptId: number) =>
    queryOptions({
      queryKey: resultKeys.report(attemptId),
      queryFn: () => api.get<ReportCard>(`/results/${attemptId}/`),
      staleTime: Infinity,
    }),
}

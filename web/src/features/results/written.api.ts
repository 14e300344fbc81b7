import type { RegradeRequest, RegradeRequestInput, ReportCard, WrittenResult } from '@quiz/contracts'
import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import { preloadPage } from '../../components/annotations/page-sources'

// Wire shapes of API.md "Written answers marked by rubric", Results and Regrade requests: types from the contracts.
export type { RegradeRequest, WrittenResult } from '@quiz/contracts'

export const writtenKeys = {
  result: (attemptId: number, questionId: number) => ['results', attemptId, 'written', questionId] as const,
}

export const writtenQueries = {
  result: (attemptId: number, questionId: number) =>
    queryOptions({
      queryKey: writtenKeys.result(attemptId, questionId),
      queryFn: ({ signal }) => api.get<WrittenResult>(`/results/${attemptId}/written/${questionId}/`, { signal }),
    }),
}

// A page's width on the report: the page frame's and the card's padding and borders off the screen, within the
// frame's 960 px; twice that zoomed in, where the browser takes the full page.
export const PAGE_SIZES = '(min-width: 960px) 892px, calc(100vw - 4.25rem)'
export const ZOOMED_SIZES = '(min-width: 960px) 1784px, calc(200vw - 8.5rem)'

/** The report's written questions: those without options (API.md: "no options"), numbered as on the report. */
export const writtenQuestionsOf = (card: ReportCard) =>
  card.questions
    .map((question, index) => ({ question, number: index + 1 }))
    .filter(({ question }) => question.options.length === 0)

/**
 * Reads the report's written answers as soon as the report arrives, and fetches the first one's first page as soon
 * as it does: on a slow phone, drawing the report takes longer than a round trip (issue 57's first marked page).
 */
export function prefetchWritten(client: QueryClient, card: ReportCard) {
  if (card.written === null) return
  writtenQuestionsOf(card).forEach(({ question }, index) => {
    const query = writtenQueries.result(card.id, question.id)
    void client.prefetchQuery(query).then(() => {
      const first = client.getQueryData(query.queryKey)?.pages[0]
      if (index === 0 && first) preloadPage(first, PAGE_SIZES)
    })
  })
}

export const askForRemark = (attemptId: number, questionId: number, body: RegradeRequestInput) =>
  api.post<RegradeRequest>(`/results/${attemptId}/written/${questionId}/regrade/`, body)

// A quiz's paper sittings (API.md "Paper sittings"): the sittings, their rosters, booklets, sheets and scans.
import type {
  BookletLayoutBody,
  BookletPage,
  PageFlag,
  PageStatus,
  PageUpdate,
  Roster,
  RosterInput,
  Scan,
  ScanBox,
  ScanFlag,
  ScanList,
  SheetLayoutShape,
  ScanStatus,
  ScanUpdate,
  Sitting,
  SittingCreate,
  SittingList,
  SittingPaper,
  SittingSet,
  SittingUpdate,
} from '@quiz/contracts'
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../api/client'
import { photoSize, shrinkPhoto } from '../../../lib/photo'
import { adminKeys, useInvalidate } from '../admin-keys'

export type { Roster, RosterInput, Scan, ScanBox, ScanFlag, ScanList, ScanStatus, Sitting, SittingPaper, SittingSet }
export type { BookletPage, PageFlag, PageStatus }

/** Written-answer booklet pages a learner when the sitting does not say (the server's default). */
export const DEFAULT_BOOKLET_PAGES = 4

/** What "Scan sheets" gets back for a photo sent to `pages/`: a booklet page, or an answer sheet (decision 075). */
export type PageOrSheet = BookletPage | (Scan & { kind: 'sheet' })
export interface BookletPageList {
  count: number
  results: BookletPage[]
}

export const sittingKeys = {
  all: ['admin', 'sittings'] as const,
  list: (quizId: number) => [...adminKeys.quiz(quizId), 'sittings'] as const,
  sitting: (id: number) => ['admin', 'sittings', id] as const,
  roster: (id: number) => [...sittingKeys.sitting(id), 'roster'] as const,
  paper: (id: number, set: SittingSet) => [...sittingKeys.sitting(id), 'paper', set] as const,
  scans: (id: number, status: ScanStatus | null) => [...sittingKeys.sitting(id), 'scans', status] as const,
  anyScan: ['admin', 'sittings', 'scan'] as const,
  scan: (scanId: number) => [...sittingKeys.anyScan, scanId] as const,
  sheet: (id: number, sheet: string) => [...sittingKeys.sitting(id), 'sheet', sheet] as const,
  scanImage: (scanId: number) => [...sittingKeys.scan(scanId), 'image'] as const,
  pages: (id: number, status: PageStatus | null) => [...sittingKeys.sitting(id), 'pages', status] as const,
  anyPage: ['admin', 'sittings', 'page'] as const,
}

/** A scan's photo and the sheets change only when their sitting does: an object URL is kept while on screen. */
const FOREVER = Number.POSITIVE_INFINITY

/** Whose kept photo: an answer sheet's scan or a booklet page. */
export interface PhotoSource {
  kind: 'scan' | 'page'
  id: number
}

/** The kept photo of an answer sheet's scan or of a booklet page (`/admin/scans/{id}/image`, `/admin/pages/...`). */
function photoQuery(source: PhotoSource) {
  return queryOptions({
    queryKey: ['admin', 'sittings', source.kind, source.id, 'image'] as const,
    queryFn: async () => {
      const photo = await api.blob(`/admin/${source.kind}s/${source.id}/image`)
      return { url: URL.createObjectURL(photo), size: await photoSize(photo) }
    },
    staleTime: FOREVER,
  })
}

export const sittingQueries = {
  list: (quizId: number) =>
    queryOptions({
      queryKey: sittingKeys.list(quizId),
      queryFn: () => api.get<SittingList>(`/admin/quizzes/${quizId}/sittings/`),
    }),
  sitting: (id: number) =>
    queryOptions({ queryKey: sittingKeys.sitting(id), queryFn: () => api.get<Sitting>(`/admin/sittings/${id}/`) }),
  roster: (id: number) =>
    queryOptions({ queryKey: sittingKeys.roster(id), queryFn: () => api.get<Roster>(`/admin/sittings/${id}/roster/`) }),
  paper: (id: number, set: SittingSet) =>
    queryOptions({
      queryKey: sittingKeys.paper(id, set),
      queryFn: () => api.get<SittingPaper>(`/admin/sittings/${id}/paper/?set=${set}`),
    }),
  scans: (id: number, status: ScanStatus | null) =>
    queryOptions({
      queryKey: sittingKeys.scans(id, status),
      queryFn: () => api.get<ScanList>(`/admin/sittings/${id}/scans/${status ? `?status=${status}` : ''}`),
    }),
  /** A sheet's SVG as text (it needs the bearer token, so no <img src> can fetch it), to draw inline. */
  sheet: (id: number, sheet: string) =>
    queryOptions({
      queryKey: sittingKeys.sheet(id, sheet),
      queryFn: async () => (await api.blob(`/admin/sittings/${id}/sheets/${sheet}`)).text(),
      staleTime: FOREVER,
    }),
  /** A written-answer booklet page's SVG as text, as a sheet's: `{roll}.svg?page=N`, `blank.svg?serial=S&page=N`. */
  bookletPage: (id: number, page: string) =>
    queryOptions({
      queryKey: [...sittingKeys.sheet(id, 'booklet'), page] as const,
      queryFn: async () => (await api.blob(`/admin/sittings/${id}/booklets/${page}`)).text(),
      staleTime: FOREVER,
    }),
  layout: (id: number, set: SittingSet) =>
    queryOptions({
      queryKey: [...sittingKeys.sitting(id), 'layout', set] as const,
      queryFn: () => api.get<SheetLayoutShape>(`/admin/sittings/${id}/sheet-layout/?set=${set}`),
      staleTime: FOREVER,
    }),
  /** The booklet page's geometry (a set's written question numbers; every set's without one); refused (409) when the paper has no written questions, or too many to print. */
  bookletLayout: (id: number, set: SittingSet | null = null) =>
    queryOptions({
      queryKey: [...sittingKeys.sitting(id), 'booklet-layout', set] as const,
      queryFn: () => api.get<BookletLayoutBody>(`/admin/sittings/${id}/booklet-layout/${set ? `?set=${set}` : ''}`),
      retry: false,
      staleTime: FOREVER,
    }),
  pages: (id: number, status: PageStatus | null) =>
    queryOptions({
      queryKey: sittingKeys.pages(id, status),
      queryFn: () => api.get<BookletPageList>(`/admin/sittings/${id}/pages/${status ? `?status=${status}` : ''}`),
    }),
  /** The kept photo of a scan, as an object URL for an <img>, with its size when the browser can tell it. */
  scanImage: (scanId: number) => photoQuery({ kind: 'scan', id: scanId }),
  photo: photoQuery,
}

/**
 * The reader's view of a scan (API.md "Paper sittings", docs/decisions/066): where it looked for each bubble and
 * what it saw, for support. It needs the bearer token, so it is fetched and handed to the browser as a file.
 */
export async function downloadReaderView(scanId: number) {
  const view = await api.blob(`/admin/scans/${scanId}/reader-view`, { timeoutMs: 60_000 })
  const url = URL.createObjectURL(view)
  const link = document.createElement('a')
  link.href = url
  link.download = `reader-view-${scanId}.jpg`
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** A change to a sitting: it and its quiz's list go stale (the counts on both). */
function useSittingChange<Variables, Result>(
  quizId: number,
  sittingId: number | null,
  send: (variables: Variables) => Promise<Result>,
) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: send,
    onSuccess: () =>
      invalidate(sittingKeys.list(quizId), ...(sittingId === null ? [] : [sittingKeys.sitting(sittingId)])),
  })
}

export const useCreateSitting = (quizId: number) =>
  useSittingChange(quizId, null, (body: SittingCreate) => api.post<Sitting>(`/admin/quizzes/${quizId}/sittings/`, body))

export const useUpdateSitting = (quizId: number, id: number) =>
  useSittingChange(quizId, id, (body: SittingUpdate) => api.patch<Sitting>(`/admin/sittings/${id}/`, body))

export function useDeleteSitting(quizId: number, id: number) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: () => api.delete(`/admin/sittings/${id}/`),
    onSuccess: () => invalidate(sittingKeys.list(quizId)),
  })
}

export function useSaveRoster(quizId: number, id: number) {
  const queryClient = useQueryClient()
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (body: RosterInput) => api.put<Roster>(`/admin/sittings/${id}/roster/`, body),
    onSuccess: (roster) => {
      queryClient.setQueryData(sittingKeys.roster(id), roster)
      // The sheets print the roster's names, roll numbers and sets.
      queryClient.removeQueries({ queryKey: [...sittingKeys.sitting(id), 'sheet'] })
      return invalidate(sittingKeys.list(quizId), sittingKeys.sitting(id))
    },
  })
}

/** The server needs no more than this on a photo's long side; a phone's 12-50 megapixels are shrunk to it first. */
export const PHOTO_LONG_SIDE = 3000

/**
 * Sends one photo of an answer sheet or a written-answer booklet page (downscaled on the device when larger than
 * needed) to `pages/`, which tells them apart by their code (docs/decisions/075); what was read, or the ApiError.
 */
export async function sendScan(sittingId: number, photo: Blob, replace = false): Promise<PageOrSheet> {
  const form = new FormData()
  const sent = await shrinkPhoto(photo, { longSide: PHOTO_LONG_SIDE })
  form.append('image', sent, sent === photo && photo instanceof File ? photo.name : 'sheet.jpg')
  if (replace) form.append('replace', 'true')
  // A 12-megapixel photo on a slow phone connection takes longer than a JSON request's 15 s.
  return api.post<PageOrSheet>(`/admin/sittings/${sittingId}/pages/`, undefined, {
    formData: form,
    timeoutMs: 120_000,
  })
}

/** After a scan: the sitting's counts and lists, and any kept photo (a sheet scanned again replaces its photo). */
export function useScansChanged(sittingId: number) {
  const invalidate = useInvalidate()
  return () => invalidate(sittingKeys.sitting(sittingId), sittingKeys.anyScan, sittingKeys.anyPage)
}

/** Settles a flagged booklet page: its learner (roll number), its question(s), or discards it. */
export function useSettlePage(sittingId: number, pageId: number) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (body: PageUpdate) => api.patch<BookletPage>(`/admin/pages/${pageId}/`, body),
    onSuccess: () => invalidate(sittingKeys.sitting(sittingId)),
  })
}

export function useSettleScan(sittingId: number, scanId: number) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (body: ScanUpdate) => api.patch<Scan>(`/admin/scans/${scanId}/`, body),
    onSuccess: () => invalidate(sittingKeys.sitting(sittingId)),
  })
}

export function useDeleteScan(sittingId: number) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (scanId: number) => api.delete(`/admin/scans/${scanId}/`),
    onSuccess: () => invalidate(sittingKeys.sitting(sittingId)),
  })
}

/**
 * A sitting's booklet pages recorded and waiting for a person (counted from its list: a sitting's pages are a few
 * hundred at most); null when the paper has no booklets, and nothing is asked for.
 */
export function usePageCounts(sittingId: number) {
  const layout = useQuery(sittingQueries.bookletLayout(sittingId))
  const pages = useQuery({ ...sittingQueries.pages(sittingId, null), enabled: layout.isSuccess })
  if (!pages.data) return null
  const count = (status: PageStatus) => pages.data.results.filter((page) => page.status === status).length
  return { recorded: count('recorded'), needsReview: count('needs_review') }
}

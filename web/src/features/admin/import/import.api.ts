// The import of an archive (API.md "Import"): the dry run, its commit, the templates, and the legacy-font converter.
import type {
  ImportCommitBody,
  ImportCommitResult,
  ImportDryRun,
  ImportFormat,
  LegacyFontChoice,
  LegacyFontToolFont,
  LegacyFontToolRequest,
  LegacyFontToolResponse,
} from '@quiz/contracts'
import { useMutation } from '@tanstack/react-query'
import { availableQuizKeys } from '../../../api/available-quizzes'
import { api } from '../../../api/client'
import { adminKeys, useInvalidate } from '../admin-keys'

export type {
  ImportCommitResult,
  ImportDryRun,
  ImportFormat,
  ImportMessage,
  ImportMessageCode,
  ImportRow,
  ImportRowStatus,
  LegacyFontChoice,
} from '@quiz/contracts'

/** A file of thousands of questions takes a while to read; the app's usual 15 s would cut it off. */
const IMPORT_TIMEOUT_MS = 300_000

/** What the admin gives: a file or pasted text, how to read it, and the defaults for rows that lack them. */
export interface ImportInput {
  content: { file: File } | { text: string }
  /** '' lets the server guess from the file's content and name. */
  format: ImportFormat | ''
  legacyFont: LegacyFontChoice
  topic: string
  /** As typed: separated by commas or `;` (the server splits them). */
  tags: string
  difficulty: string
  source: string
  /** A spreadsheet's headings mapped to template columns (`{"प्रश्न": "question_ne"}`); empty when not needed. */
  columns: Readonly<Record<string, string>>
}

export function importForm(input: ImportInput): FormData {
  const form = new FormData()
  // Fields before the file: a multipart reader meets them before the large part.
  if (input.format) form.set('format', input.format)
  form.set('legacy_font', input.legacyFont)
  for (const [name, value] of [
    ['topic', input.topic],
    ['tags', input.tags],
    ['difficulty', input.difficulty],
    ['source', input.source],
  ] as const)
    if (value.trim()) form.set(name, value.trim())
  if (Object.keys(input.columns).length > 0) form.set('columns', JSON.stringify(input.columns))
  if ('file' in input.content) form.set('file', input.content.file)
  else form.set('text', input.content.text)
  return form
}

export function useDryRun() {
  return useMutation({
    mutationFn: (input: ImportInput) =>
      api.post<ImportDryRun>('/admin/imports/', undefined, {
        formData: importForm(input),
        timeoutMs: IMPORT_TIMEOUT_MS,
      }),
  })
}

/** Committing adds questions to the bank and maybe to a quiz: both lists go stale. */
export function useCommitImport() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ importId, quizId, rows }: { importId: number; quizId: number | null; rows?: number[] }) => {
      const body: ImportCommitBody = {}
      if (rows) body.rows = rows
      if (quizId !== null) body.quiz_id = quizId
      return api.post<ImportCommitResult>(`/admin/imports/${importId}/commit/`, body, { timeoutMs: IMPORT_TIMEOUT_MS })
    },
    onSuccess: (_result, { quizId }) =>
      invalidate(
        adminKeys.bank,
        ...(quizId === null ? [] : [adminKeys.quiz(quizId), adminKeys.quizList(), availableQuizKeys.all]),
      ),
  })
}

export type TemplateKind = 'xlsx' | 'csv'

/** The templates need the bearer token, so a plain link cannot fetch them: fetch, then hand the file over. */
export async function downloadTemplate(kind: TemplateKind) {
  const file = await api.blob(`/admin/imports/template.${kind}`)
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = `questions-template.${kind}`
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

export type LegacyFont = LegacyFontToolFont

/** `POST /api/admin/tools/legacy-font/`: the converter alone. */
export const convertLegacyText = (text: string, font: LegacyFont, signal?: AbortSignal) =>
  api.post<LegacyFontToolResponse>('/admin/tools/legacy-font/', { text, font } satisfies LegacyFontToolRequest, {
    signal,
  })

/** The rows that a commit writes: the server commits every `ok` and `fixed` row when none are named. */
export const importableCount = (dryRun: ImportDryRun) => dryRun.summary.ok + dryRun.summary.fixed

/** The bank validates `ids=` as at most 500 ids; a larger import links to its first 500. */
export const BANK_IDS_LIMIT = 500

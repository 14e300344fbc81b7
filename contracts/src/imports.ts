// Request and response schemas of API.md "Import": the dry run of an archive and its commit into the bank.
import { z } from 'zod'
import { adminLimits } from './admin'
import { BilingualSchema, DifficultySchema } from './common'
import { bankLimits } from './papers'
import { PictureSchema } from './pictures'

export const importLimits = {
  /** Bytes of one uploaded file (413 above). */
  fileBytes: 20 * 1024 * 1024,
  /** Bytes a zip (xlsx, docx) may inflate to, counted while inflating (400 `import_unreadable` above). */
  unpackedBytes: 50 * 1024 * 1024,
  /**
   * Bytes a Word file's text (word/document.xml) may unpack to: its parser holds about 40 times that in memory, so
   * 6 MB (some 1,500 questions) keeps a reading near 250 MB (docs/decisions/043).
   */
  documentBytes: 6 * 1024 * 1024,
  /** Bytes a workbook's sheet or its shared strings may unpack to: twice those of a full 5,000-question sheet. */
  sheetBytes: 16 * 1024 * 1024,
  /** Cells of the first sheet (a full 5,000-question sheet has 150,000): the workbook reader's memory follows them. */
  sheetCells: 250_000,
  /** Questions in one import (400 `import_unreadable` above). */
  questions: 5_000,
  /** Characters of pasted text. */
  textLength: 20 * 1024 * 1024,
  /** Hours a dry run is kept by default (`IMPORT_TTL_HOURS`). */
  ttlHours: 24,
} as const

/** `text` is pasted text (or a .txt file) in the Word layout: numbered questions, lettered options, an answer line. */
export const ImportFormatSchema = z.enum(['xlsx', 'csv', 'docx', 'text', 'aiken', 'gift', 'moodle_xml'])
export type ImportFormat = z.infer<typeof ImportFormatSchema>

/** How text typed in a legacy Nepali font (Preeti, Kantipur) is treated; `auto` by default. */
export const LegacyFontChoiceSchema = z.enum(['auto', 'preeti', 'kantipur', 'none'])
export type LegacyFontChoice = z.infer<typeof LegacyFontChoiceSchema>

/** Spreadsheet columns (template, export and import), in the template's order; `option_{a..j}_{en,ne}` between. */
export const importOptionLetters = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'] as const
export const importColumns = [
  'question_en',
  'question_ne',
  ...importOptionLetters.flatMap((letter) => [`option_${letter}_en`, `option_${letter}_ne`]),
  'correct',
  'hint_en',
  'hint_ne',
  'topic',
  'tags',
  'difficulty',
  'source',
  // A written question (API.md "Written answers marked by rubric"): `type` written, no options and no answer.
  'type',
  'marks',
  'word_limit',
  'model_answer_en',
  'model_answer_ne',
  // A numeric question (API.md "Question types"): `type` numeric, its value and tolerance or its range, its decimals.
  'answer_value',
  'answer_tolerance',
  'answer_min',
  'answer_max',
  'decimals',
  // A reading passage: rows with the same passage text share one bank passage, in row order. `passage` is one cell
  // in either language (Devanagari in it makes it Nepali); the export writes `passage_en` and `passage_ne`, so a
  // passage in both languages reads back as it was (docs/decisions/123).
  'passage',
  'passage_en',
  'passage_ne',
] as const

/**
 * The bank export's picture columns, after the layout's (only those some exported question uses are written): a
 * question's or an option's picture, embedded in its cell, beside `{field}_caption_en` and `{field}_caption_ne`.
 */
export const importPictureFields = ['image', ...importOptionLetters.map((letter) => `option_${letter}_image` as const)]

/** The picture of a row's reading passage, in its own column after the options' (the export writes it on each row). */
export const importPassagePictureField = 'passage_image'

/** Empty multipart fields are absent: a form sends '' for a field left blank. */
const blankIsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)

/**
 * The fields of `POST /api/admin/imports/` beside `file` / `text` (multipart values are strings). `tags` is one
 * string separated by `;` or `,`.
 */
const columnsMessage =
  'columns must be a JSON object from a heading of the file to a template column, such as {"प्रश्न": "question_ne"}.'

/**
 * `columns`: a spreadsheet's headings mapped to template columns, as a JSON string (a multipart value). Refusals are
 * said at `columns` itself: the admin chose the mapping as a whole.
 */
export const ImportColumnsSchema = z.string().transform((value, context) => {
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    parsed = null
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    context.addIssue({ code: 'custom', message: columnsMessage })
    return z.NEVER
  }
  const entries = Object.entries(parsed as Record<string, unknown>)
  const known = new Set<string>(importColumns)
  const unknown = entries.filter(([, column]) => typeof column !== 'string' || !known.has(column))
  if (entries.length > importColumns.length * 2 || entries.some(([heading]) => heading.length > 200)) {
    context.addIssue({ code: 'custom', message: columnsMessage })
    return z.NEVER
  }
  if (unknown.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `${unknown.map(([, column]) => JSON.stringify(column)).join(', ')} ${unknown.length === 1 ? 'is not a template column' : 'are not template columns'}: use question_en, question_ne, option_a_en … option_j_ne, correct, hint_en, hint_ne, topic, tags, difficulty, source, type, marks, word_limit, model_answer_en, model_answer_ne, answer_value, answer_tolerance, answer_min, answer_max, decimals, passage, passage_en or passage_ne.`,
    })
    return z.NEVER
  }
  const columns = entries.map(([, column]) => column as string)
  const twice = columns.filter((column, index) => columns.indexOf(column) !== index)
  if (twice.length > 0) {
    context.addIssue({ code: 'custom', message: `Two headings are mapped to ${twice[0]}; map each column once.` })
    return z.NEVER
  }
  return parsed as Record<string, (typeof importColumns)[number]>
})

export const ImportFieldsSchema = z.object({
  columns: z.preprocess(blankIsAbsent, ImportColumnsSchema.optional()),
  format: z.preprocess(blankIsAbsent, ImportFormatSchema.optional()),
  legacy_font: z.preprocess(blankIsAbsent, LegacyFontChoiceSchema.default('auto')),
  topic: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .trim()
      .max(adminLimits.topicLength, `A topic may have at most ${adminLimits.topicLength} characters.`)
      .optional(),
  ),
  tags: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(/[;,]/)
          .map((tag) => tag.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(z.string().max(bankLimits.tagLength, `A tag may have at most ${bankLimits.tagLength} characters.`))
          .max(bankLimits.tags, `A question may have at most ${bankLimits.tags} tags.`),
      ),
  ),
  difficulty: z.preprocess(blankIsAbsent, DifficultySchema.optional()),
  source: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .trim()
      .max(bankLimits.sourceLength, `A source may have at most ${bankLimits.sourceLength} characters.`)
      .optional(),
  ),
})
export type ImportFields = z.input<typeof ImportFieldsSchema>

export const ImportRowStatusSchema = z.enum(['ok', 'fixed', 'rejected', 'duplicate'])
export type ImportRowStatus = z.infer<typeof ImportRowStatusSchema>

/** The codes of a `fixed` row's messages: what the import changed to bring the row in. */
export const importFixCodes = [
  'trimmed',
  'letter_read',
  'devanagari_numbering',
  'font_converted',
  'language_guessed',
  'partial_credit_dropped',
  'maths_rewritten',
  // A multiple question whose file split the credit among its right options: partial marks are the paper section's.
  'partial_marking',
] as const
export const importDuplicateCodes = ['duplicate_in_bank', 'duplicate_in_file'] as const

/**
 * Why a row is `fixed`, `rejected` or `duplicate`, as a stable code beside the English sentence (so the web app
 * can say it in Nepali).
 */
export const ImportMessageCodeSchema = z.enum([
  ...importFixCodes,
  'no_correct',
  'several_correct',
  'unknown_correct',
  'option_count',
  'empty_text',
  'unsupported_type',
  'image',
  'media',
  'equation',
  'table',
  'unsupported_font',
  'invalid_maths',
  'invalid',
  ...importDuplicateCodes,
])
export type ImportMessageCode = z.infer<typeof ImportMessageCodeSchema>

/**
 * `field` is a dotted path in `question` (`text.ne`, `options.2.text.en`, `options`, `hint.en`, `topic`), `correct`
 * for the answer, or `row` for the row as a whole.
 */
export const ImportMessageSchema = z.object({ field: z.string(), message: z.string(), code: ImportMessageCodeSchema })
export type ImportMessage = z.infer<typeof ImportMessageSchema>

/** One legacy-font conversion: the text as typed and the Unicode it became. */
export const ImportConversionSchema = z.object({ field: z.string(), original: z.string(), unicode: z.string() })
export type ImportConversion = z.infer<typeof ImportConversionSchema>

/** A picture an import brought in, stored when the file was read (API.md "Import": pictures come in as pictures). */
export const ImportImageSchema = z
  .object({ svg: z.null(), picture: PictureSchema, caption: BilingualSchema })
  .nullable()
export type ImportImage = z.infer<typeof ImportImageSchema>

/** The question as it would be stored: a bank question's input. */
export const ImportQuestionSchema = z.object({
  text: BilingualSchema,
  hint: BilingualSchema.nullable(),
  topic: z.string(),
  image: ImportImageSchema,
  options: z.array(z.object({ text: BilingualSchema, is_correct: z.boolean(), image: ImportImageSchema })),
  tags: z.array(z.string()),
  difficulty: DifficultySchema.nullable(),
  source: z.string().nullable(),
  /**
   * Absent in a choice question; a written one has `type`, `marks`, `word_limit` and `model_answer`; a numeric one
   * `answer` and `decimals` (and no options); a multiple one its options with one or more right.
   */
  type: z.enum(['choice', 'multiple', 'numeric', 'written']).optional(),
  marks: z.number().nullable().optional(),
  word_limit: z.number().int().nullable().optional(),
  model_answer: BilingualSchema.nullable().optional(),
  answer: z
    .union([z.object({ value: z.number(), tolerance: z.number() }), z.object({ min: z.number(), max: z.number() })])
    .nullable()
    .optional(),
  decimals: z.number().int().nullable().optional(),
})
export type ImportQuestion = z.infer<typeof ImportQuestionSchema>

export const ImportRowSchema = z.object({
  /** 1-based place in the file: sheet row, CSV record's first line, docx paragraph, first line, `<question>` line. */
  row: z.number().int(),
  status: ImportRowStatusSchema,
  question: ImportQuestionSchema,
  messages: z.array(ImportMessageSchema),
  converted: z.array(ImportConversionSchema),
  /** For a `duplicate`: the bank question it repeats, or the earlier row of this import. */
  duplicate_of: z.object({ question_id: z.number().int().nullable(), row: z.number().int().nullable() }).nullable(),
  /**
   * The reading passage the question comes under (its questions share one bank passage on commit), or null; its
   * picture when the file gave it one (absent in a dry run stored before passages took pictures).
   */
  passage: z.object({ text: BilingualSchema, image: ImportImageSchema.optional() }).nullable().optional(),
})
export type ImportRow = z.infer<typeof ImportRowSchema>

export const ImportSummarySchema = z.object({
  ok: z.number().int(),
  fixed: z.number().int(),
  rejected: z.number().int(),
  duplicate: z.number().int(),
})
export type ImportSummary = z.infer<typeof ImportSummarySchema>

/** 201 of `POST /api/admin/imports/`: nothing is in the bank yet. */
export const ImportDryRunSchema = z.object({
  import_id: z.number().int(),
  format: ImportFormatSchema,
  rows: z.array(ImportRowSchema),
  summary: ImportSummarySchema,
  /** When the dry run is forgotten (then its commit is 404). */
  expires_at: z.string(),
})
export type ImportDryRun = z.infer<typeof ImportDryRunSchema>

/** `POST /api/admin/imports/{id}/commit/`: every `ok` / `fixed` row, or those named; optionally into a quiz. */
export const ImportCommitBodySchema = z.object({
  rows: z
    .array(z.number().int().min(1).max(1_000_000_000))
    .max(importLimits.questions * 20)
    .optional(),
  quiz_id: z.number().int().positive().max(2_147_483_647).optional(),
})
export type ImportCommitBody = z.input<typeof ImportCommitBodySchema>

export const ImportCommitResultSchema = z.object({
  imported: z.number().int(),
  duplicates: z.number().int(),
  question_ids: z.array(z.number().int()),
})
export type ImportCommitResult = z.infer<typeof ImportCommitResultSchema>

export const importMessages = {
  unreadable: (format: string) => `This file could not be read as ${format}.`,
  tooManyQuestions: `An import may hold at most ${importLimits.questions.toLocaleString('en')} questions; split the file.`,
  tooLargeUnpacked: 'This file unpacks to more than 50 MB; split it or remove pictures from it.',
  encrypted: 'This file is password-protected; save a copy without a password and import that.',
  fileTooLarge: 'A file may be at most 20 MB.',
  documentTooLarge: `This Word file's text unpacks to more than ${importLimits.documentBytes / 1024 / 1024} MB; split it into smaller files.`,
  sheetTooLarge: `This workbook's sheet is larger than ${importLimits.sheetBytes / 1024 / 1024} MB or ${importLimits.sheetCells.toLocaleString('en')} cells; split it into smaller files.`,
  tooSlow: 'Reading this file took too long or too much memory; split it into smaller files and import each.',
  busy: 'Other imports are being read; try again in a minute.',
  noInput: 'Send a file or pasted text.',
  bothInputs: 'Send a file or pasted text, not both.',
  rowNotImportable: 'This row is not in the dry run or is not ok or fixed.',
  columnsMessage,
  unknownQuiz: 'No such quiz.',
} as const

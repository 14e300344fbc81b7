import ExcelJS from 'exceljs'
import {
  importColumns,
  importOptionLetters,
  importPassagePictureField,
  importPictureFields,
  type ImportImage,
  type ImportQuestion,
} from '@quiz/contracts'

// An export read back by the import is the same questions (all `duplicate`).

const WIDE = new Set(['question_en', 'question_ne', 'hint_en', 'hint_ne'])

/** A question as the sheet holds it, and the reading passage it comes under (its text in the `passage` columns). */
export type SheetQuestion = ImportQuestion & {
  passage?: { text: { en: string; ne: string }; image?: ImportImage } | null
}

export function questionCells(question: SheetQuestion): Record<string, string> {
  const answer = question.type === 'numeric' ? question.answer : null
  const cells: Record<string, string> = {
    question_en: question.text.en,
    question_ne: question.text.ne,
    correct: '',
    hint_en: question.hint?.en ?? '',
    hint_ne: question.hint?.ne ?? '',
    topic: question.topic,
    tags: question.tags.join('; '),
    difficulty: question.difficulty ?? '',
    source: question.source ?? '',
    type: question.type && question.type !== 'choice' ? question.type : '',
    marks: question.type === 'written' ? String(question.marks ?? '') : '',
    word_limit: question.type === 'written' ? String(question.word_limit ?? '') : '',
    model_answer_en: question.model_answer?.en ?? '',
    model_answer_ne: question.model_answer?.ne ?? '',
    answer_value: answer && 'value' in answer ? String(answer.value) : '',
    answer_tolerance: answer && 'value' in answer ? String(answer.tolerance) : '',
    answer_min: answer && 'min' in answer ? String(answer.min) : '',
    answer_max: answer && 'min' in answer ? String(answer.max) : '',
    decimals:
      question.type === 'numeric' && question.decimals !== null && question.decimals !== undefined
        ? String(question.decimals)
        : '',
    // Each language in its own column, as the question's: read back, the passage is the same in both.
    passage_en: question.passage?.text.en ?? '',
    passage_ne: question.passage?.text.ne ?? '',
  }
  const right: string[] = []
  question.options.forEach((option, index) => {
    const letter = importOptionLetters[index]!
    cells[`option_${letter}_en`] = option.text.en
    cells[`option_${letter}_ne`] = option.text.ne
    if (option.is_correct) right.push(letter.toUpperCase())
  })
  // A multiple question's right options as `A;C`, which the import reads back.
  cells.correct = right.join(';')
  return cells
}

export interface SheetPicture {
  png: Buffer
  width: number
  height: number
}

const SHOWN_HEIGHT = 120

export async function writeXlsx(
  questions: Iterable<SheetQuestion>,
  sheetName = 'Questions',
  pictureOf?: (url: string) => SheetPicture | undefined,
): Promise<Buffer> {
  const list = [...questions]
  // A passage's picture on each of its rows, as its text is: a row read alone still has it.
  const fields = [...importPictureFields, importPassagePictureField]
  const imagesOf = (question: SheetQuestion) => [
    question.image,
    ...importOptionLetters.map((_, index) => question.options[index]?.image ?? null),
    question.passage?.image ?? null,
  ]
  const used = fields.filter((_, index) => list.some((question) => imagesOf(question)[index]?.picture))
  const pictureColumns = used.flatMap((field) => [field, `${field}_caption_en`, `${field}_caption_ne`])
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet(sheetName)
  sheet.columns = [...importColumns, ...pictureColumns].map((column) => ({
    header: column,
    key: column,
    width: WIDE.has(column) ? 50 : /^(option_|image|passage_image)/.test(column) ? 24 : 14,
  }))
  sheet.getRow(1).font = { bold: true }
  sheet.views = [{ state: 'frozen', ySplit: 1 }]
  const imageIds = new Map<string, number>()
  for (const question of list) {
    const cells = questionCells(question)
    const images = imagesOf(question)
    for (const field of used) {
      const image = images[fields.indexOf(field)]
      if (!image?.picture) continue
      cells[`${field}_caption_en`] = image.caption.en
      cells[`${field}_caption_ne`] = image.caption.ne
    }
    const row = sheet.addRow(cells)
    // Excel would read "1/2" as a date and "007" as 7: every cell is text.
    row.eachCell((cell) => (cell.numFmt = '@'))
    for (const field of used) {
      const url = images[fields.indexOf(field)]?.picture?.url
      const picture = url ? pictureOf?.(url) : undefined
      if (!url || !picture) continue
      let imageId = imageIds.get(url)
      if (imageId === undefined)
        imageIds.set(url, (imageId = workbook.addImage({ buffer: picture.png as never, extension: 'png' })))
      const scale = Math.min(1, SHOWN_HEIGHT / picture.height)
      sheet.addImage(imageId, {
        tl: { col: sheet.getColumn(field).number - 1, row: row.number - 1 },
        ext: { width: Math.round(picture.width * scale), height: Math.round(picture.height * scale) },
        editAs: 'oneCell',
      })
      row.height = Math.max(row.height ?? 15, SHOWN_HEIGHT * 0.75 + 4)
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

const csvField = (value: string) =>
  /[",;\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value

export function writeCsv(questions: Iterable<SheetQuestion>): string {
  const lines = [importColumns.join(',')]
  for (const question of questions) {
    const cells = questionCells(question)
    lines.push(importColumns.map((column) => csvField(cells[column] ?? '')).join(','))
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`
}

export const templateQuestions: ImportQuestion[] = [
  {
    text: { en: 'What is the capital of Nepal?', ne: 'नेपालको राजधानी कुन हो?' },
    hint: { en: 'Kathmandu has been the capital since 1768.', ne: 'सन् १७६८ देखि काठमाडौं राजधानी हो।' },
    topic: 'General knowledge',
    image: null,
    options: [
      { text: { en: 'Pokhara', ne: 'पोखरा' }, is_correct: false, image: null },
      { text: { en: 'Kathmandu', ne: 'काठमाडौं' }, is_correct: true, image: null },
      { text: { en: 'Lalitpur', ne: 'ललितपुर' }, is_correct: false, image: null },
      { text: { en: 'Biratnagar', ne: 'विराटनगर' }, is_correct: false, image: null },
    ],
    tags: ['Loksewa', 'Geography'],
    difficulty: 'easy',
    source: 'Example',
  },
  {
    text: { en: '', ne: '$x^2 = 16$ भए $x$ को धनात्मक मान कति हुन्छ?' },
    hint: null,
    topic: 'Mathematics',
    image: null,
    options: [
      { text: { en: '', ne: '२' }, is_correct: false, image: null },
      { text: { en: '', ne: '४' }, is_correct: true, image: null },
      { text: { en: '', ne: '८' }, is_correct: false, image: null },
      { text: { en: '', ne: '१६' }, is_correct: false, image: null },
    ],
    tags: ['Algebra'],
    difficulty: 'medium',
    source: 'Example',
  },
]

import { ImportDryRunSchema, importMessages, type ImportDryRun } from '@quiz/contracts'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes, useLocation } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse, signInAs } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { Component as ImportPage } from './import-page'

vi.setConfig({ testTimeout: 20_000 })

const question = (en: string, ne: string, correct = 1) => ({
  text: { en, ne },
  hint: null,
  topic: 'Constitution',
  image: null,
  options: ['Kathmandu', 'Pokhara', 'Dharan'].map((option, index) => ({
    text: { en: option, ne: '' },
    is_correct: index === correct,
    image: null,
  })),
  tags: ['2081'],
  difficulty: null,
  source: 'PSC 2081',
})

// Parsed by the contracts' schema, so the page is tested against the shapes the server sends.
const dryRun: ImportDryRun = ImportDryRunSchema.parse({
  import_id: 7,
  format: 'xlsx',
  expires_at: '2026-11-24T19:30:00.000Z',
  summary: { ok: 1, fixed: 1, rejected: 1, duplicate: 1 },
  rows: [
    {
      row: 2,
      status: 'ok',
      question: question('Capital of Nepal?', ''),
      messages: [],
      converted: [],
      duplicate_of: null,
    },
    {
      row: 3,
      status: 'fixed',
      question: question('', 'लोक सेवा आयोग कहिले स्थापना भयो?'),
      messages: [
        { field: 'text.ne', code: 'font_converted', message: 'Converted from the Preeti font.' },
        { field: 'options.1.text.ne', code: 'font_converted', message: 'Converted from the Preeti font.' },
      ],
      converted: [{ field: 'text.ne', original: 'nf]s ;]jf cfof]u', unicode: 'लोक सेवा आयोग' }],
      duplicate_of: null,
    },
    {
      row: 4,
      status: 'rejected',
      question: { ...question('Which is true?', ''), options: [] },
      messages: [{ field: 'options', code: 'option_count', message: 'A question needs 2 to 10 options; this has 1.' }],
      converted: [],
      duplicate_of: null,
    },
    {
      row: 5,
      status: 'duplicate',
      question: question('Highest peak?', ''),
      messages: [{ field: 'row', code: 'duplicate_in_bank', message: 'The bank already holds this question.' }],
      converted: [],
      duplicate_of: { question_id: 31, row: null },
    },
  ],
})

interface Sent {
  key: string
  json?: unknown
  form?: Record<string, FormDataEntryValue>
}
let sent: Sent[]
let answer: (key: string, request: Sent) => { status: number; body: unknown }

const quizzes = [{ id: 3, title: { en: 'Mock 1', ne: 'नमुना १' }, question_count: 5 }]

function standard(key: string): { status: number; body: unknown } {
  if (key === 'POST /api/admin/imports/') return { status: 201, body: dryRun }
  if (key === 'GET /api/admin/quizzes/') return { status: 200, body: quizzes }
  if (key === 'POST /api/admin/imports/7/commit/')
    return { status: 200, body: { imported: 2, duplicates: 0, question_ids: [40, 41] } }
  throw new Error(`unexpected ${key}`)
}

beforeEach(() => {
  signInAs({ username: 'boss', is_admin: true })
  sent = []
  answer = standard
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`
      const request: Sent = { key }
      if (init?.body instanceof FormData) request.form = Object.fromEntries(init.body.entries())
      else if (typeof init?.body === 'string') request.json = JSON.parse(init.body)
      sent.push(request)
      const { status, body } = answer(key, request)
      return jsonResponse(status, body)
    }),
  )
})
afterEach(() => vi.unstubAllGlobals())

function BankStub() {
  const location = useLocation()
  return <p>bank at {location.search}</p>
}

const renderImport = (language: 'en' | 'ne' = 'en') =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/import" element={<ImportPage />} />
      <Route path="/admin/bank" element={<BankStub />} />
    </Routes>,
    { route: '/admin/import', language },
  )

const sheet = () => new File(['fake xlsx'], 'questions.xlsx', { type: 'application/octet-stream' })
const dryRuns = () => sent.filter((request) => request.key === 'POST /api/admin/imports/')

async function checkFile(
  user: ReturnType<typeof userEvent.setup>,
  fileLabel = /^File/,
  button = 'Check the questions',
) {
  await user.upload(screen.getByLabelText(fileLabel), sheet())
  await user.click(screen.getByRole('button', { name: button }))
  await screen.findByRole('table', { name: /as it will be stored|जसरी बैंकमा/ })
}

describe('the dry run', () => {
  it('sends the file with the settings and the defaults, and shows every row with its summary', async () => {
    const user = userEvent.setup()
    renderImport()
    await user.type(screen.getByLabelText('Tags'), 'loksewa; 2081')
    await user.type(screen.getByLabelText('Source'), 'PSC 2081')
    await checkFile(user)

    const [request] = dryRuns()
    expect(request?.form).toMatchObject({ legacy_font: 'auto', tags: 'loksewa; 2081', source: 'PSC 2081' })
    expect(request?.form?.format).toBeUndefined()
    expect((request?.form?.file as File).name).toBe('questions.xlsx')
    expect(screen.getByText('questions.xlsx')).toBeInTheDocument()

    expect(screen.getByText(/4 questions read: 1 ok, 1 fixed, 1 rejected, 1 duplicates\./)).toHaveAttribute(
      'role',
      'status',
    )
    expect(screen.getByText(/Format: Excel \(xlsx\)\./)).toBeInTheDocument()
    expect(screen.getByLabelText('Format')).toHaveValue('xlsx')
    const rows = within(screen.getByRole('table', { name: /as it will be stored/ })).getAllByRole('row')
    expect(rows).toHaveLength(5 + 2) // header, four rows, and the conversion table's header and row
  })

  it('marks the correct option and shows a conversion as typed beside its Unicode', async () => {
    const user = userEvent.setup()
    renderImport()
    await checkFile(user)
    const okRow = screen.getByText('Row 2').closest('tr')!
    const correct = within(okRow).getByText('correct answer').closest('li')!
    expect(correct).toHaveTextContent('B. Pokhara')

    const conversions = screen.getByRole('table', { name: 'Converted from a legacy font' })
    const [, conversion] = within(conversions).getAllByRole('row')
    expect(within(conversion!).getByRole('rowheader')).toHaveTextContent('Question (Nepali)')
    expect(
      within(conversion!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['nf]s ;]jf cfof]u', 'लोक सेवा आयोग'])
    const duplicateRow = screen.getByText('Row 5').closest('tr')!
    expect(duplicateRow).toHaveTextContent('Already in the bank as question #31.')
  })

  it('filters the rows by the status chips, which carry their counts', async () => {
    const user = userEvent.setup()
    renderImport()
    await checkFile(user)
    const chips = screen.getByRole('group', { name: 'Show rows' })
    expect(within(chips).getByRole('button', { name: 'All 4' })).toHaveAttribute('aria-pressed', 'true')
    await user.click(within(chips).getByRole('button', { name: 'Rejected 1' }))
    expect(within(chips).getByRole('button', { name: 'Rejected 1' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByText('Row 4')).toBeInTheDocument()
    expect(screen.queryByText('Row 2')).not.toBeInTheDocument()
    expect(screen.getByText('A question needs 2 to 10 options; this has 1.')).toBeInTheDocument()
    await user.click(within(chips).getByRole('button', { name: 'All 4' }))
    expect(screen.getByText('Row 2')).toBeInTheDocument()
  })

  it('reads the file again when the legacy-font setting or the format changes', async () => {
    const user = userEvent.setup()
    renderImport()
    await checkFile(user)
    await user.selectOptions(screen.getByLabelText('Legacy Nepali fonts'), 'preeti')
    await waitFor(() => expect(dryRuns()).toHaveLength(2))
    expect(dryRuns()[1]?.form).toMatchObject({ legacy_font: 'preeti', format: 'xlsx' })
    await screen.findByRole('table', { name: /as it will be stored/ })
    await user.selectOptions(screen.getByLabelText('Format'), 'csv')
    await waitFor(() => expect(dryRuns()).toHaveLength(3))
    expect(dryRuns()[2]?.form).toMatchObject({ legacy_font: 'preeti', format: 'csv' })
  })

  it('sends pasted text as text', async () => {
    const user = userEvent.setup()
    renderImport()
    await user.click(screen.getByLabelText('Pasted text'))
    await user.type(screen.getByLabelText('Questions as text'), '1. Capital?{enter}A. Kathmandu')
    await user.click(screen.getByRole('button', { name: 'Check the questions' }))
    await screen.findByRole('table', { name: /as it will be stored/ })
    expect(dryRuns()[0]?.form).toMatchObject({ text: '1. Capital?\nA. Kathmandu' })
    expect(dryRuns()[0]?.form?.file).toBeUndefined()
  })

  it('asks for a file before sending anything', async () => {
    const user = userEvent.setup()
    renderImport()
    await user.click(screen.getByRole('button', { name: 'Check the questions' }))
    expect(screen.getByText('Choose a file or paste some text.')).toBeInTheDocument()
    expect(dryRuns()).toHaveLength(0)
  })
})

describe('a refused file in English', () => {
  it('is said in the sentence of the server, which names the problem', async () => {
    const user = userEvent.setup()
    const detail = 'PDF files cannot be imported; open the PDF in Word, save it as .docx and import that.'
    answer = () => ({ status: 400, body: { code: 'import_unreadable', detail } })
    renderImport()
    await user.upload(screen.getByLabelText(/^File/), sheet())
    await user.click(screen.getByRole('button', { name: 'Check the questions' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(detail)
  })
})

describe('in Nepali', () => {
  it('shows places, counts and letters in Nepali and the messages by their code', async () => {
    const user = userEvent.setup()
    renderImport('ne')
    await checkFile(user, /^फाइल \(/, 'प्रश्नहरू जाँच्नुहोस्')
    expect(screen.getByText(/४ प्रश्न पढियो: १ ठीक, १ सच्याइएको, १ अस्वीकृत, १ दोहोरिएको।/)).toBeInTheDocument()
    const fixedRow = screen.getByText('हरफ ३').closest('tr')!
    // One line for the same sentence about several fields.
    const messages = within(fixedRow)
      .getAllByRole('listitem')
      .filter((item) => item.closest('.import-changes'))
    expect(messages.map((item) => item.textContent)).toEqual([
      'प्रश्न (नेपाली), विकल्प ख (नेपाली): पुरानो फन्टको पाठ युनिकोडमा बदलियो: रूपान्तरण जाँच्नुहोस्।',
    ])
    const okRow = screen.getByText('हरफ २').closest('tr')!
    expect(within(okRow).getByText('सही उत्तर').closest('li')).toHaveTextContent('ख. Pokhara')
    expect(screen.getByRole('button', { name: 'अस्वीकृत १' })).toBeInTheDocument()
  })

  it('says why a file was refused', async () => {
    const user = userEvent.setup()
    answer = () => ({ status: 400, body: { code: 'import_unreadable', detail: importMessages.encrypted } })
    renderImport('ne')
    await user.upload(screen.getByLabelText(/^फाइल \(/), sheet())
    await user.click(screen.getByRole('button', { name: 'प्रश्नहरू जाँच्नुहोस्' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('यो फाइलमा पासवर्ड छ')
  })

  it('says in Nepali why a file was too large, too slow or had to wait (issue 41)', async () => {
    const user = userEvent.setup()
    const cases: [number, string, string, RegExp][] = [
      [400, 'import_unreadable', importMessages.documentTooLarge, /६ MB भन्दा ठूलो/],
      [400, 'import_unreadable', importMessages.sheetTooLarge, /२,५०,००० cell/],
      [400, 'import_unreadable', importMessages.tooSlow, /धेरै समय वा धेरै memory/],
      [429, 'rate_limited', importMessages.busy, /एक मिनेटपछि फेरि/],
    ]
    renderImport('ne')
    for (const [status, code, detail, text] of cases) {
      answer = () => ({ status, body: { code, detail } })
      await user.upload(screen.getByLabelText(/^फाइल \(/), sheet())
      await user.click(screen.getByRole('button', { name: 'प्रश्नहरू जाँच्नुहोस्' }))
      expect(await screen.findByText(text)).toBeInTheDocument()
    }
  })

  it('shows the server’s own sentence for a file it cannot read, after a general one', async () => {
    const user = userEvent.setup()
    const detail = 'PDF files cannot be imported; open the PDF in Word, save it as .docx and import that.'
    answer = () => ({ status: 400, body: { code: 'import_unreadable', detail } })
    renderImport('ne')
    await user.upload(screen.getByLabelText(/^फाइल \(/), sheet())
    await user.click(screen.getByRole('button', { name: 'प्रश्नहरू जाँच्नुहोस्' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('यो फाइल पढ्न सकिएन।')
    expect(alert).toHaveTextContent(detail)
  })

  it('says a file is too large', async () => {
    const user = userEvent.setup()
    answer = () => ({ status: 413, body: { code: 'payload_too_large', detail: importMessages.fileTooLarge } })
    renderImport('ne')
    await user.upload(screen.getByLabelText(/^फाइल \(/), sheet())
    await user.click(screen.getByRole('button', { name: 'प्रश्नहरू जाँच्नुहोस्' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('फाइल बढीमा २० MB को हुनुपर्छ')
  })
})

describe('the commit', () => {
  it('imports every ok and fixed row into a chosen quiz, then links to them in the bank', async () => {
    const user = userEvent.setup()
    renderImport()
    await checkFile(user)
    await screen.findByRole('option', { name: 'Mock 1' })
    await user.selectOptions(screen.getByLabelText('Also add them to a quiz (optional)'), '3')
    await user.click(screen.getByRole('button', { name: 'Import 2 questions' }))
    await screen.findByText(/Imported 2 questions; 0 were already in the bank\. They were also added to Mock 1\./)
    const commit = sent.find((request) => request.key === 'POST /api/admin/imports/7/commit/')
    expect(commit?.json).toEqual({ quiz_id: 3 })
    expect(screen.queryByRole('button', { name: /^Import \d/ })).not.toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'Import: Row 2' })).toBeDisabled()

    await user.click(screen.getByRole('link', { name: 'Open them in the question bank' }))
    expect(screen.getByText('bank at ?ids=40,41')).toBeInTheDocument()
  })

  it('leaves out the rows the admin unticked, and names a refused row by its place', async () => {
    const user = userEvent.setup()
    renderImport()
    await checkFile(user)
    answer = (key) =>
      key.startsWith('POST /api/admin/imports/7/commit/')
        ? {
            status: 400,
            body: {
              code: 'validation_error',
              detail: 'Invalid input.',
              errors: { 'rows.0': [importMessages.rowNotImportable] },
            },
          }
        : standard(key)
    await user.click(screen.getByRole('checkbox', { name: 'Import: Row 2' }))
    await user.click(screen.getByRole('button', { name: 'Import 1 question' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Row 3 can no longer be imported.')
    const commit = sent.find((request) => request.key === 'POST /api/admin/imports/7/commit/')
    expect(commit?.json).toEqual({ rows: [3] })
  })

  it('says a refusal of the quiz in the server’s words unless the quiz is gone', async () => {
    const user = userEvent.setup()
    renderImport('ne')
    await checkFile(user, /^फाइल \(/, 'प्रश्नहरू जाँच्नुहोस्')
    const full = "This quiz's paper would hold 502 questions; a paper may hold at most 500."
    answer = (key) =>
      key.startsWith('POST /api/admin/imports/7/commit/')
        ? {
            status: 400,
            body: { code: 'validation_error', detail: 'Some fields are invalid.', errors: { quiz_id: [full] } },
          }
        : standard(key)
    await screen.findByRole('option', { name: 'नमुना १' })
    await user.selectOptions(screen.getByLabelText(/क्विज/), '3')
    await user.click(screen.getByRole('button', { name: /आयात गर्नुहोस्/ }))
    expect(await screen.findByRole('alert')).toHaveTextContent(full)
  })

  it('says when the dry run has been forgotten', async () => {
    const user = userEvent.setup()
    renderImport()
    await checkFile(user)
    answer = (key) =>
      key.startsWith('POST /api/admin/imports/7/commit/')
        ? { status: 404, body: { code: 'not_found', detail: 'Not found.' } }
        : standard(key)
    await user.click(screen.getByRole('button', { name: 'Import 2 questions' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('older than 24 hours')
  })
})

describe('a sheet whose headings are not understood', () => {
  const headings = ['Sawal', 'Pahilo', 'Dosro', 'Uttar']
  const refusal = {
    status: 400,
    body: { code: 'import_unreadable', detail: 'No header row was found: the first row’s headings (…)', headings },
  }

  it.each([
    ['en', /^File/, 'Check the questions', 'Sawal', 'Question (English)', 'Read with these columns', 'Answer'],
    ['ne', /^फाइल \(/, 'प्रश्नहरू जाँच्नुहोस्', 'Sawal', 'प्रश्न (अंग्रेजी)', 'यी स्तम्भअनुसार पढ्नुहोस्', 'उत्तर'],
  ] as const)(
    'lists the headings in %s, offers a column for each, and sends the mapping as columns',
    async (language, fileLabel, check, heading, questionColumn, apply, answerColumn) => {
      const user = userEvent.setup()
      answer = (key, request) =>
        key === 'POST /api/admin/imports/' && request.form?.columns === undefined ? refusal : standard(key)
      renderImport(language)
      await user.upload(screen.getByLabelText(fileLabel), sheet())
      await user.click(screen.getByRole('button', { name: check }))
      expect(await screen.findByRole('alert')).toHaveTextContent('Sawal, Pahilo, Dosro, Uttar')
      await user.selectOptions(screen.getByLabelText(heading), questionColumn)
      await user.selectOptions(screen.getByLabelText('Uttar'), answerColumn)
      // A template column already given to a heading cannot be given to another.
      expect(within(screen.getByLabelText('Pahilo')).getByRole('option', { name: questionColumn })).toBeDisabled()
      // The passage's columns in words: one cell in either language, or each language in its own.
      const passage = language === 'en' ? 'Passage' : 'अनुच्छेद'
      const passageNe = language === 'en' ? 'Passage (Nepali)' : 'अनुच्छेद (नेपाली)'
      for (const name of [passage, passageNe])
        expect(within(screen.getByLabelText('Dosro')).getByRole('option', { name })).toBeEnabled()
      await user.click(screen.getByRole('button', { name: apply }))
      await screen.findByRole('table', { name: /as it will be stored|जसरी बैंकमा/ })
      expect(JSON.parse(dryRuns()[1]!.form!.columns as string)).toEqual({ Sawal: 'question_en', Uttar: 'correct' })
    },
  )

  it('shows a refused mapping in the server’s words', async () => {
    const user = userEvent.setup()
    const message = '"Tesro" is not a heading of this file; its headings are: Sawal, Pahilo, Dosro, Uttar.'
    answer = (key, request) =>
      request.form?.columns === undefined
        ? refusal
        : {
            status: 400,
            body: { code: 'validation_error', detail: 'Some fields are invalid.', errors: { columns: [message] } },
          }
    renderImport('ne')
    await user.upload(screen.getByLabelText(/^फाइल \(/), sheet())
    await user.click(screen.getByRole('button', { name: 'प्रश्नहरू जाँच्नुहोस्' }))
    await user.selectOptions(await screen.findByLabelText('Sawal'), 'question_ne')
    await user.click(screen.getByRole('button', { name: 'यी स्तम्भअनुसार पढ्नुहोस्' }))
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message))
    // The mapping stays on screen to be corrected.
    expect(screen.getByLabelText('Sawal')).toHaveValue('question_ne')
  })
})

describe('what a fixed row changed', () => {
  const fixedRun: ImportDryRun = ImportDryRunSchema.parse({
    ...dryRun,
    summary: { ok: 0, fixed: 1, rejected: 0, duplicate: 0 },
    rows: [
      {
        row: 6,
        status: 'fixed',
        question: question('Largest planet with $x^2$?', ''),
        messages: [
          {
            field: 'correct',
            code: 'partial_credit_dropped',
            message: 'Partial credit (50%) was dropped: only the right answer scores here.',
          },
          { field: 'text', code: 'maths_rewritten', message: 'Moodle’s maths delimiters \\(…\\) were written as $…$.' },
          {
            field: 'options.0.text',
            code: 'maths_rewritten',
            message: 'Moodle’s maths delimiters \\(…\\) were written as $…$.',
          },
        ],
        converted: [],
        duplicate_of: null,
      },
    ],
  })

  it.each([
    ['en', 'Changed on import:', 'Answer: Partial credit (50%) was dropped', 'Question, Option A: Moodle’s maths'],
    ['ne', 'आयात गर्दा बदलिएको:', 'उत्तर: आंशिक अङ्क हटाइयो', 'प्रश्न, विकल्प क: Moodleको गणितीय चिन्ह'],
  ] as const)('lists each change in %s apart from the problems', async (language, title, credit, maths) => {
    const user = userEvent.setup()
    answer = (key) => (key === 'POST /api/admin/imports/' ? { status: 201, body: fixedRun } : standard(key))
    renderImport(language)
    await checkFile(
      user,
      language === 'en' ? /^File/ : /^फाइल \(/,
      language === 'en' ? 'Check the questions' : 'प्रश्नहरू जाँच्नुहोस्',
    )
    const changes = screen.getByText(title).closest('.import-changes') as HTMLElement
    const items = within(changes)
      .getAllByRole('listitem')
      .map((item) => item.textContent)
    expect(items).toHaveLength(2)
    expect(items[0]).toContain(credit)
    expect(items[1]).toContain(maths)
    expect(document.querySelector('.import-messages')).toBeNull()
  })
})

// npm run bench:import: the budgets of issue 27 for the import (docs/decisions/032), on SQLite with one process.
//  1. The dry run of a generated 1,000-question xlsx (both languages, four options, topic, tags): under 3 s.
//  2. Its commit into the bank: under 3 s.
//  3. A 5,000-question xlsx, dry run and commit: within 15 s.
// Peak resident-memory growth of the server during each step is printed beside its time (sampled every 20 ms), and
// the slowest answer of /api/health, asked every 25 ms meanwhile (budget: 100 ms).
// BENCH_QUESTIONS (default 1000) and BENCH_LARGE (default 5000) change the sizes.
// Then the worst inputs of issue 41 (M2, L4), each sent while /api/health is asked every 25 ms: the slowest health
// answer during each is printed beside its status, time and peak RSS growth (budget: health under 100 ms).
import ExcelJS from 'exceljs'
import { strToU8, zipSync } from 'fflate'
import { Worker } from 'node:worker_threads'
import { startServer } from './lib.mjs'

const small = Number(process.env.BENCH_QUESTIONS ?? 1000)
const large = Number(process.env.BENCH_LARGE ?? 5000)
const letters = 'abcdefghij'

const columns = [
  'question_en',
  'question_ne',
  ...[...letters].flatMap((letter) => [`option_${letter}_en`, `option_${letter}_ne`]),
  'correct',
  'hint_en',
  'hint_ne',
  'topic',
  'tags',
  'difficulty',
  'source',
]

async function workbook(count, seed) {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Questions')
  sheet.addRow(columns)
  for (let n = 0; n < count; n++) {
    const row = {
      question_en: `Question ${seed}-${n}: which district is number ${n} in the list of the province?`,
      question_ne: `प्रश्न ${seed}-${n}: प्रदेशको सूचीमा ${n} नम्बरको जिल्ला कुन हो?`,
      correct: 'ABCD'[n % 4],
      hint_en: n % 3 === 0 ? `Hint for question ${n}.` : '',
      topic: `Topic ${n % 20}`,
      tags: `Loksewa; Set ${n % 7}`,
      difficulty: ['easy', 'medium', 'hard'][n % 3],
      source: 'Bench archive',
    }
    for (let o = 0; o < 4; o++) {
      row[`option_${letters[o]}_en`] = `Option ${o + 1} of ${seed}-${n}`
      row[`option_${letters[o]}_ne`] = `विकल्प ${o + 1} (${n})`
    }
    sheet.addRow(columns.map((column) => row[column] ?? ''))
  }
  return Buffer.from(await book.xlsx.writeBuffer())
}

/** Runs `work` while sampling the server's RSS; resolves with its result, seconds and the peak growth in MB. */
async function measured(server, work) {
  const rss = () => Object.values(server.rss()).reduce((sum, mb) => sum + mb, 0)
  const before = rss()
  let peak = before
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 20)
  const started = performance.now()
  try {
    const result = await work()
    return { result, seconds: (performance.now() - started) / 1000, growthMB: Math.max(0, peak - before) }
  } finally {
    clearInterval(timer)
  }
}

const server = await startServer()
const failures = []
try {
  const token = await server.seed({
    admin: 'benchadmin',
    phone: '9800000000',
    learners: 1,
    prefix: 'benchlearner',
    password: 'Bench-Password-42',
  })
  const headers = { authorization: `Bearer ${token}` }
  const dryRun = async (bytes, name) => {
    const form = new FormData()
    form.append('file', new Blob([bytes]), name)
    const response = await fetch(`${server.baseUrl}/api/admin/imports/`, { method: 'POST', headers, body: form })
    if (response.status !== 201) throw new Error(`dry run: ${response.status} ${await response.text()}`)
    return response.json()
  }
  const commit = async (id) => {
    const response = await fetch(`${server.baseUrl}/api/admin/imports/${id}/commit/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    })
    if (response.status !== 200) throw new Error(`commit: ${response.status} ${await response.text()}`)
    return response.json()
  }
  // Health is asked from a thread of its own: asked from this one, it would wait while this thread parses a dry
  // run's answer of megabytes, and the server would be blamed for the bench's own pause.
  const withHealth = async (work) => {
    const poller = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads')
       let slowest = 0, running = true
       parentPort.on('message', () => { running = false })
       ;(async () => {
         while (running) {
           const started = performance.now()
           await fetch(workerData + '/api/health')
           slowest = Math.max(slowest, performance.now() - started)
           await new Promise((resolve) => setTimeout(resolve, 25))
         }
         parentPort.postMessage(slowest)
       })()`,
      { eval: true, workerData: server.baseUrl },
    )
    try {
      return {
        ...(await measured(server, work)),
        slowest: await new Promise((resolve) => {
          poller.once('message', resolve)
          poller.postMessage('stop')
        }),
      }
    } finally {
      await poller.terminate()
    }
  }
  const report = (label, step, budget) => {
    const verdict = step.seconds <= budget ? 'within' : 'OVER'
    if (step.seconds > budget) failures.push(label)
    console.log(
      `${label.padEnd(34)} ${step.seconds.toFixed(2).padStart(6)} s (budget ${budget} s, ${verdict}); peak RSS growth ${step.growthMB} MB${step.slowest === undefined ? '' : `; slowest health ${step.slowest.toFixed(0)} ms`}`,
    )
    if (step.slowest > 100) failures.push(`health ${step.slowest.toFixed(0)} ms during ${label}`)
  }

  for (const [count, seed, budgets] of [
    [small, 'a', [3, 3]],
    [large, 'b', [15, 15]],
  ]) {
    const bytes = await workbook(count, seed)
    console.log(`${count} questions: ${(bytes.length / 1024).toFixed(0)} KB xlsx`)
    const run = await withHealth(() => dryRun(bytes, `bench-${count}.xlsx`))
    const summary = run.result.summary
    if (summary.ok !== count) failures.push(`${count}: ${JSON.stringify(summary)}`)
    report(`dry run of ${count}`, run, budgets[0])
    const done = await withHealth(() => commit(run.result.import_id))
    if (done.result.imported !== count) failures.push(`${count}: imported ${done.result.imported}`)
    report(`commit of ${count}`, done, budgets[1])
    if (count === large) {
      const total = { seconds: run.seconds + done.seconds, growthMB: Math.max(run.growthMB, done.growthMB) }
      report(`dry run + commit of ${count}`, total, 15)
    }
  }

  // The worst inputs of issue 41, and how the server answers health while each is read.
  const send = async (file, text) => {
    const form = new FormData()
    if (file) form.append('file', new Blob([file.bytes]), file.name)
    else form.append('text', text)
    const response = await fetch(`${server.baseUrl}/api/admin/imports/`, { method: 'POST', headers, body: form })
    const body = await response.json()
    return { status: response.status, body }
  }
  const docx = (paragraphs) =>
    zipSync(
      {
        'word/document.xml': strToU8(
          `<w:document xmlns:w="w"><w:body>${paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('')}</w:body></w:document>`,
        ),
      },
      { level: 9 },
    )
  const moodle = (n) =>
    `<?xml version="1.0"?>\n<quiz>\n${Array.from({ length: n }, (_, i) => `<question type="multichoice"><questiontext><text>Q${i}</text></questiontext><answer fraction="100"><text>a</text></answer><answer fraction="0"><text>b</text></answer></question>\n`).join('')}</quiz>`
  const worst = [
    ['docx: 1 question, 30,000 paragraphs', { bytes: docx(['1. Q', ...Array(30_000).fill('x')]), name: 'w.docx' }],
    [
      'docx: 45 MB unpacked',
      { bytes: docx(['1. Q', 'A. a', 'B. b', 'Answer: A', ' '.repeat(45 * 1024 * 1024)]), name: 'big.docx' },
    ],
    ['text: 1 question, 40 KB of lines', null, ['1. Q', ...Array(20_000).fill('x')].join('\n')],
    [
      'text: 5,000 questions of 100 lines',
      null,
      Array.from({ length: 5000 }, (_, i) =>
        [`${i + 1}. Q${i}`, ...Array(100).fill('x'), 'A. a', 'B. b', 'Answer: A'].join('\n'),
      ).join('\n'),
    ],
    ['moodle xml: 200 KB', { bytes: Buffer.from(moodle(1500)), name: 'm.xml' }],
    ['guessed text: braces', null, '\n{ '.repeat(200_000)],
    ['xlsx: 5,000 questions', { bytes: await workbook(5000, 'w'), name: 'w.xlsx' }],
  ]
  for (const [label, file, text] of worst) {
    const step = await withHealth(() => send(file, text))
    const size = file ? file.bytes.length : Buffer.byteLength(text)
    console.log(
      `${label.padEnd(36)} ${(size / 1024).toFixed(0).padStart(6)} KB -> ${step.result.status} in ${step.seconds.toFixed(2)} s; slowest health ${step.slowest.toFixed(0)} ms; peak RSS growth ${step.growthMB} MB`,
    )
    if (step.slowest > 100) failures.push(`health ${step.slowest.toFixed(0)} ms during ${label}`)
  }
} finally {
  await server.stop()
}
if (failures.length > 0) {
  console.error(`Over budget or wrong: ${failures.join(', ')}`)
  process.exitCode = 1
}

// npm run bench:maths: the two budgets of API.md "Maths and chemistry" (docs/decisions/027).
//  1. Rendering at write time: the mean cost of one formula (KaTeX with mhchem, to MathML, with its plain reading)
//     over a physics and chemistry set, after a warm-up. Budget: under 1 ms a formula.
//  2. Wire bytes: a learner fetches every question of a 100-question physics paper, two formulas a question in
//     each language, from the built server (SQLite) with `accept-encoding: gzip`; the same paper with the formulas
//     written as plain text is the baseline. Budget: the maths paper's question responses exceed it by under 30 KB.
// BENCH_QUESTIONS (default 100) and BENCH_RENDERS (default 2,000 renders of each formula) change the sizes.
import http from 'node:http'
import { gzipSync } from 'node:zlib'
import { renderMaths } from '../server/src/maths/render-maths.ts'
import { call, startServer } from './lib.mjs'

const questionCount = Number(process.env.BENCH_QUESTIONS ?? 100)
const renders = Number(process.env.BENCH_RENDERS ?? 2_000)
const KB = 1024

const formulas = [
  '\\frac{1}{2}mv^2',
  'v = u + at',
  's = ut + \\frac{1}{2}at^2',
  'F = \\frac{Gm_1m_2}{r^2}',
  '\\vec{F} = m\\vec{a}',
  'E = mc^2',
  'x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}',
  '\\int_0^1 x^2\\,dx',
  '\\ce{2H2 + O2 -> 2H2O}',
  '\\ce{CH3COOH <=> CH3COO- + H+}',
  '\\pu{6.02e23 mol^-1}',
  '\\text{बल} = ma',
]

// 1. Render cost.
// Each text is made unique by its round number (outside the formula): renderMaths remembers recent texts, and a
// write's second render of a text is a lookup; this measures the first.
for (const tex of formulas) renderMaths(`$${tex}$ warm-up`)
const started = performance.now()
for (let round = 0; round < renders; round++) for (const tex of formulas) renderMaths(`$${tex}$ ${round}`)
const perFormula = (performance.now() - started) / (renders * formulas.length)
const slowest = formulas
  .map((tex) => {
    const from = performance.now()
    for (let round = 0; round < 200; round++) renderMaths(`$${tex}$ slowest ${round}`)
    return { tex, ms: (performance.now() - from) / 200 }
  })
  .sort((a, b) => b.ms - a.ms)[0]

// 2. Wire bytes of the question responses.
const physicsQuiz = (withMaths) => ({
  title: { en: withMaths ? 'Physics with maths' : 'Physics without maths', ne: 'भौतिक' },
  duration_minutes: 120,
  allowed_attempts: 10,
  questions: Array.from({ length: questionCount }, (_, i) => {
    const mass = i + 2
    const first = withMaths ? `$m = ${mass}\\,\\text{kg}$` : `m = ${mass} kg`
    const second = withMaths ? `$E_k = \\frac{1}{2}mv^2$` : 'Ek = 1/2 mv²'
    return {
      text: {
        en: `Question ${i + 1}: a body of mass ${first} moves at ${i + 3} m/s. Using ${second}, find its kinetic energy.`,
        ne: `प्रश्न ${i + 1}: ${first} पिण्डको वस्तु ${i + 3} m/s मा चल्छ। ${second} प्रयोग गरी गतिज ऊर्जा निकाल्नुहोस्।`,
      },
      topic: 'mechanics',
      options: [1, 2, 3, 4].map((k) => ({ text: { en: `${k * mass * 10} J`, ne: '' }, is_correct: k === 1 })),
    }
  }),
})

/** Bytes a learner's browser receives for question 1..n: body as sent (compressed) plus the response head. */
function fetchBytes(baseUrl, url, token, encoding) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}${url}`, {
      headers: { authorization: `Bearer ${token}`, ...(encoding ? { 'accept-encoding': encoding } : {}) },
    })
    req.on('response', (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => {
        const raw = Buffer.concat(chunks)
        const head = res.rawHeaders.reduce((sum, part) => sum + part.length + 2, 0) + 20
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`))
        else resolve({ body: raw.length, raw, head, encoding: res.headers['content-encoding'] ?? 'none' })
      })
    })
    req.on('error', reject)
  })
}

const server = await startServer()
const figures = {}
try {
  const admin = await server.seed({
    admin: 'mathsadmin',
    phone: '9700000000',
    learners: 1,
    prefix: 'mathslearner',
    password: 'Bench-pass-2026',
  })
  const [token] = await server.tokensFor(['mathslearner1'])
  for (const withMaths of [true, false]) {
    const quizId = await server.createQuiz(admin, physicsQuiz(withMaths))
    if (!quizId) throw new Error('create-from-JSON refused the paper')
    await call(server.baseUrl, 'GET', `/api/quizzes/${quizId}/`, { token })
    for (const encoding of ['gzip', 'br', undefined]) {
      let total = 0
      let gzipped = 0
      let used
      for (let n = 1; n <= questionCount; n++) {
        const bytes = await fetchBytes(server.baseUrl, `/api/quizzes/${quizId}/question/${n}/`, token, encoding)
        total += bytes.body + bytes.head
        // Every body gzipped, whatever its size: the maths alone, apart from the server's 1 KB threshold.
        if (!encoding) gzipped += gzipSync(bytes.raw).length
        used = bytes.encoding
      }
      figures[`${withMaths ? 'maths' : 'plain'} ${encoding ?? 'identity'}`] = { total, gzipped, used }
    }
  }
} finally {
  await server.stop()
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`
const extra = (encoding) => figures[`maths ${encoding}`].total - figures[`plain ${encoding}`].total
console.log(`KaTeX render, ${formulas.length} formulas x ${renders}: ${(perFormula * 1000).toFixed(0)} µs a formula`)
console.log(`  slowest: ${(slowest.ms * 1000).toFixed(0)} µs for ${slowest.tex}`)
console.log(`  budget under 1 ms a formula: ${perFormula < 1 ? 'met' : 'NOT MET'}`)
console.log(`${questionCount} question responses, two formulas a question in each language (body + head):`)
for (const encoding of ['gzip', 'br', 'identity'])
  console.log(
    `  ${encoding.padEnd(8)} maths ${kb(figures[`maths ${encoding}`].total)} (sent ${figures[`maths ${encoding}`].used}),` +
      ` plain ${kb(figures[`plain ${encoding}`].total)}, maths adds ${kb(extra(encoding))}`,
  )
const gzippedExtra = figures['maths identity'].gzipped - figures['plain identity'].gzipped
console.log(`  every body gzipped, heads left out: maths adds ${kb(gzippedExtra)}`)
console.log(`  budget under 30 KB added (gzip): ${extra('gzip') < 30 * KB ? 'met' : 'NOT MET'}`)
if (perFormula >= 1 || extra('gzip') >= 30 * KB) process.exitCode = 1

// npm run bench:omr: the budgets and accuracy targets of API.md "Paper sittings" for the answer-sheet reader
// (docs/decisions/054-omr-reader.md), on phone-like photos from server/test/fixtures/sheet-photos.ts.
//  1. Accuracy, per condition of BENCH_CONDITIONS (default all: standard, fold, curl, lens, glare, hard-shadow,
//     tight-crop, whatsapp, low-res, motion-blur), over BENCH_PHOTOS (default 500) seeded photos each, 8-12 MP, sheets of 100 questions: questions read right,
//     flagged, or read wrong without a flag; cleanly marked sheets flagged; photos refused; sheets read for the
//     wrong learner (a QR code or roll number that is not the sheet's). Numeric questions' grids (decision 129) are
//     counted on their own: right, flagged numeric_unclear, or read wrong without a flag. A question flagged is
//     split by the bench's truth into one the learner's own marks explain (a light mark, a dot or tick, two marks in
//     a row, a faint bubble in a multiple row) and one flagged on clean marks: the photo's own cost (issue 79).
//  2. CPU time of one core (sharp held to one thread) to read a 12 MP JPEG, p50 and p95 (budget: p95 under 1 s).
//  3. Peak RSS of a child process that only reads, while it reads 4 photos of 12 MP at once (budget: under 400 MB).
// BENCH_CACHE=<dir> keeps the generated JPEGs there (named by a hash of their specs and of the generator's sources),
// so a second run reads the same photos without drawing them again. BENCH_VERBOSE=1 names each photo read wrong.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { readSheet } from '../server/src/sittings/reader/read-sheet.ts'
import { phonePhotoFor } from './phone-photo.mjs'

if (process.argv[2] === '--read-at-once') {
  // The child: read the given photos at once and report this process's RSS before and at its peak.
  const files = process.argv.slice(3).map((file) => readFileSync(file))
  const layout = (await import('../server/src/sittings/sheet/sheet-layout.ts')).buildSheetLayout({
    questionCount: 100,
    optionCounts: Array.from({ length: 100 }, () => 4),
    labels: 'latin',
  })
  global.gc?.()
  const before = process.memoryUsage().rss
  let peak = before
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
  const results = await Promise.all(
    files.map((jpeg) => readSheet(jpeg, { secret: 'bench-secret', sittingId: 5, layoutFor: () => layout })),
  )
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage().rss)
  console.log(JSON.stringify({ before, peak, read: results.filter((r) => r.ok).length }))
  process.exit(0)
}

const { CONDITIONS, gridMarksFor, markedSheetSvg, photographSheet, seededRandom, sheetLayoutOf } =
  await import('../server/test/fixtures/sheet-photos.ts')
const { readNumber } = await import('../contracts/src/rules/numbers.ts')

const photos = Number(process.env.BENCH_PHOTOS ?? 500)
const secret = 'bench-secret'
const sittingId = 5
const optionCounts = Array.from({ length: 100 }, () => 4)
const letters = 'ABCD'
// The last rows of each sheet are multiple questions' rows (decision 129): 0-3 options marked, read as a set.
const MULTIPLE_ROWS = 10
const isMultiple = (q) => q >= optionCounts.length - MULTIPLE_ROWS
// After the rows, numeric questions' grids (decision 129): a sign, 2 whole and 2 decimal digits, the point's places.
const GRID = { whole: 2, fraction: 2 }
const numeric = Array.from({ length: 4 }, (_, i) => ({ number: optionCounts.length + 1 + i, ...GRID }))

/**
 * Each grid's number and how it is written, from its own generator so the rows draw what they always drew: 8 %
 * blank, else up to two whole digits, up to two decimals, a third negative; on a sheet not cleanly marked, a fifth
 * written lightly. The truth is the number in its shortest form.
 */
function gridsFor(n, clean) {
  const random = seededRandom(n ^ 0x9a1d)
  const inks = ['pen', 'blue', 'pencil']
  const gridMarks = []
  const truth = numeric.map((_, grid) => {
    if (random() < 0.08) return { value: null }
    const whole = String(Math.floor(random() * (random() < 0.5 ? 10 : 100)))
    const decimals = Math.floor(random() * 3)
    const fraction = Array.from({ length: decimals }, () => Math.floor(random() * 10)).join('')
    const typed = `${random() < 0.33 ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
    const style = !clean && random() < 0.2 ? 'light' : inks[Math.floor(random() * 3)]
    gridMarks.push(...gridMarksFor(grid, GRID, typed, style))
    return { value: readNumber(typed).text, light: style === 'light' }
  })
  return { gridMarks, truth }
}

/** A grid as interpretReading reads it: its number, blank, or flagged numeric_unclear for a person. */
function judgeGrid(truth, answer) {
  if (answer === truth.value) return 'right'
  return answer !== null && typeof answer === 'object' ? 'flagged' : 'wrong'
}

function sheetFor(n, random) {
  const clean = random() < 0.7
  const inks = ['pen', 'blue', 'pencil']
  const marks = []
  const truth = []
  for (let q = 0; q < optionCounts.length; q++) {
    if (isMultiple(q)) {
      const chosen = [0, 1, 2, 3].filter(() => random() < 0.45)
      const faint = !clean && chosen.length > 0 && random() < 0.2 ? chosen[0] : null
      for (const o of chosen)
        marks.push({ question: q, option: o, style: o === faint ? 'light' : inks[Math.floor(random() * 3)] })
      truth.push({ set: chosen.map((o) => letters[o]).join(''), faint: faint !== null })
      continue
    }
    const option = Math.floor(random() * 4)
    const roll = random()
    if (roll < 0.08) {
      truth.push(null)
      if (!clean && random() < 0.5) marks.push({ question: q, option, style: random() < 0.5 ? 'dot' : 'tick' })
      continue
    }
    const style = clean || roll > 0.2 ? inks[Math.floor(random() * 3)] : 'light'
    marks.push({ question: q, option, style })
    truth.push(style === 'light' ? { light: letters[option] } : letters[option])
    if (!clean && random() < 0.05) marks.push({ question: q, option: (option + 1) % 4, style: 'dot' })
  }
  if (!clean) {
    const q = Math.floor(random() * (optionCounts.length - MULTIPLE_ROWS))
    const first = marks.find((m) => m.question === q && m.style !== 'dot' && m.style !== 'tick')
    if (first) {
      marks.push({ question: q, option: (first.option + 2) % 4, style: 'pen' })
      truth[q] = { multiple: [first.option, (first.option + 2) % 4].sort().map((o) => letters[o]) }
    }
  }
  const grids = gridsFor(n, clean)
  const walkIn = random() < 0.1
  const rollNumber = 1 + Math.floor(random() * 999_998)
  const set = 'ABCD'[Math.floor(random() * 4)]
  const holder = walkIn
    ? { kind: 'blank', serial: n + 1 }
    : { kind: 'roster', learnerName: `Learner ${n}`, rollNumber, set }
  return {
    spec: {
      secret,
      sittingId,
      labels: 'latin',
      optionCounts,
      holder,
      // A learner id of six digits, as the server prints it (docs/decisions/061), drawing nothing from `random`.
      learnerId: 100_000 + n,
      marks,
      numeric,
      gridMarks: grids.gridMarks,
      handRoll: rollNumber,
      handSet: set,
    },
    truth,
    gridTruth: grids.truth,
    clean,
    rollNumber,
    set,
  }
}

/** A multiple row as interpretReading reads it: clear marks without faint ones beside them are its letters. */
function judgeMultiple(truth, answer) {
  const read =
    answer === null || typeof answer === 'string'
      ? (answer ?? '')
      : answer.flag === 'multiple' && !answer.doubtful
        ? answer.marks.join('')
        : undefined
  if (read === undefined) return 'flagged'
  return read === truth.set ? 'right' : 'wrong'
}

const INKS = new Set(['pen', 'blue', 'pencil'])

/**
 * Whether the learner's own marks on a row make a flag right: a light mark, a stray dot or tick, two marks in a
 * one-answer row, or a faint bubble in a multiple row. Such a flag is the reader doing its job, not the photo's cost.
 */
function learnerDoubt(sheet, q) {
  const truth = sheet.truth[q]
  if (truth !== null && typeof truth === 'object' && (truth.light || truth.multiple || truth.faint)) return true
  return sheet.spec.marks.some((m) => m.question === q && !INKS.has(m.style))
}

function judge(truth, answer) {
  if (truth?.set !== undefined) return judgeMultiple(truth, answer)
  if (truth === null || typeof truth === 'string') {
    if (answer === truth) return 'right'
    return answer !== null && typeof answer === 'object' ? 'flagged' : 'wrong'
  }
  if (truth.light) {
    if (answer === truth.light) return 'right'
    return answer !== null && typeof answer === 'object' ? 'flagged' : 'wrong'
  }
  if (answer?.flag === 'multiple' && answer.marks.join() === truth.multiple.join()) return 'right'
  return answer !== null && typeof answer === 'object' ? 'flagged' : 'wrong'
}

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0)

const cacheDir = process.env.BENCH_CACHE
const generatorSources = [
  '../server/test/fixtures/sheet-photos.ts',
  '../server/test/fixtures/sheet-photo-conditions.ts',
  '../server/test/fixtures/seeded-random.ts',
  '../server/src/sittings/sheet/sheet-svg.ts',
  '../server/src/sittings/sheet/sheet-layout.ts',
  '../server/src/sittings/sheet/sheet-code.ts',
]
  .map((file) => readFileSync(fileURLToPath(new URL(file, import.meta.url)), 'utf8'))
  .join('\n')

async function photograph(sheetSpec, photoSpec, n) {
  if (!cacheDir) return photographSheet(markedSheetSvg(sheetSpec, n), photoSpec)
  const key = createHash('sha256')
    .update(generatorSources)
    .update(JSON.stringify([sheetSpec, photoSpec, n]))
    .digest('hex')
    .slice(0, 24)
  const file = join(cacheDir, `${key}.jpg`)
  if (existsSync(file)) return readFileSync(file)
  const jpeg = await photographSheet(markedSheetSvg(sheetSpec, n), photoSpec)
  mkdirSync(cacheDir, { recursive: true })
  writeFileSync(file, jpeg)
  return jpeg
}

async function memoryWhileFourAreRead() {
  const random = seededRandom(9001)
  const dir = mkdtempSync(join(tmpdir(), 'omr-bench-'))
  const files = []
  for (let n = 0; n < 4; n++) {
    const { spec } = sheetFor(n, random)
    const file = join(dir, `${n}.jpg`)
    writeFileSync(file, await photograph(spec, phonePhotoFor(n, random, 12), n))
    files.push(file)
  }
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--read-at-once', ...files],
    { encoding: 'utf8' },
  )
  rmSync(dir, { recursive: true, force: true })
  if (child.status !== 0) throw new Error(`the reading child failed: ${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1))
}

const verbose = process.env.BENCH_VERBOSE === '1'
// BENCH_DUMP=<dir> keeps each photo read wrong there (condition-n.jpg, with its sheet as JSON), each photo refused
// (refused-condition-n.jpg) and each cleanly marked sheet flagged (flagged-condition-n.jpg), to look at.
const dumpDir = process.env.BENCH_DUMP
function dump(condition, n, jpeg, sheet, prefix) {
  mkdirSync(dumpDir, { recursive: true })
  writeFileSync(join(dumpDir, `${prefix}${condition}-${n}.jpg`), jpeg)
  writeFileSync(
    join(dumpDir, `${prefix}${condition}-${n}.json`),
    JSON.stringify({ sheet: sheet.spec, truth: sheet.truth, gridTruth: sheet.gridTruth }),
  )
}
// BENCH_CONDITIONS=fold,glare,... picks the conditions (sheet-photo-conditions.ts); each gets BENCH_PHOTOS photos.
const conditions = (process.env.BENCH_CONDITIONS ?? CONDITIONS.join(',')).split(',').filter(Boolean)
for (const condition of conditions)
  if (!CONDITIONS.includes(condition)) throw new Error(`unknown condition ${condition}: ${CONDITIONS.join(', ')}`)
const memory = conditions.includes('standard') ? await memoryWhileFourAreRead() : null
sharp.concurrency(1)
const pct = (part, whole) => (whole ? ((100 * part) / whole).toFixed(3) : 'n/a')

/** The photo spec for a condition: a standard photo, then what the condition changes in how it is taken. */
function conditionPhoto(condition, n, random, index) {
  const megapixels = condition === 'low-res' ? 2 + random() : n % 2 === 0 ? 12 : 8 + random() * 4
  const spec = { ...phonePhotoFor(n + index * 100_000, random, megapixels), condition }
  if (condition === 'lens') Object.assign(spec, { fill: 0.85 + random() * 0.1, tiltDeg: random() * 10 })
  if (condition === 'tight-crop') Object.assign(spec, { tiltDeg: random() * 4, smallAngleDeg: (random() - 0.5) * 3 })
  return spec
}

async function runCondition(condition, index) {
  // BENCH_SEED draws another set of photos: a check that the reader was not tuned to one set.
  const random = seededRandom(Number(process.env.BENCH_SEED ?? 44) + index)
  const counts = { right: 0, flagged: 0, wrong: 0 }
  // The one-answer questions flagged, split: the learner's own marks explain the flag, or the marks are clean.
  const flaggedBy = { learner: 0, clean: 0 }
  const multipleCounts = { right: 0, flagged: 0, wrong: 0 }
  const gridCounts = { right: 0, flagged: 0, wrong: 0 }
  const stats = { cleanSheets: 0, cleanFlagged: 0, refused: 0, wrongLearner: 0, refusals: {}, wrongByKind: {} }
  const cpuMs = []
  const started = Date.now()
  for (let n = 0; n < photos; n++) {
    const sheet = sheetFor(n, random)
    const photoSpec = conditionPhoto(condition, n, random, index)
    const jpeg = await photograph(sheet.spec, photoSpec, n)
    const cpu = process.cpuUsage()
    const result = await readSheet(jpeg, { secret, sittingId, layoutFor: () => sheetLayoutOf(sheet.spec) })
    const used = process.cpuUsage(cpu)
    if (photoSpec.megapixels === 12 || condition === 'low-res') cpuMs.push((used.user + used.system) / 1000)
    // BENCH_TIMES=1 prints each photo's CPU (ms), its size and whether it was read: which photos make the p95.
    if (process.env.BENCH_TIMES === '1')
      console.error(
        `${condition} ${n}: ${((used.user + used.system) / 1000).toFixed(0)} ms, ${photoSpec.megapixels.toFixed(1)} MP, ${result.ok ? 'read' : `refused (${result.refusal})`}`,
      )
    if (!result.ok) {
      stats.refused++
      stats.refusals[result.refusal] = (stats.refusals[result.refusal] ?? 0) + 1
      if (verbose) console.error(`${condition} ${n}: refused (${result.refusal}) ${JSON.stringify(photoSpec)}`)
      if (dumpDir) dump(condition, n, jpeg, sheet, `refused-`)
      continue
    }
    const holder = sheet.spec.holder
    const codeRight =
      holder.kind === 'roster' ? result.code.rollNumber === holder.rollNumber : result.code.serial === holder.serial
    const rollWrong = typeof result.roll === 'number' && result.roll !== sheet.rollNumber
    if (!codeRight || rollWrong) stats.wrongLearner++
    let flagged = result.roll === 'unclear' || result.set === 'unclear'
    let wrongHere = 0
    const flaggedWhat = []
    result.answers.forEach(({ answer }, q) => {
      const truth = sheet.truth[q]
      const verdict = judge(truth, answer)
      ;(isMultiple(q) ? multipleCounts : counts)[verdict]++
      if (!isMultiple(q) && verdict === 'flagged') flaggedBy[learnerDoubt(sheet, q) ? 'learner' : 'clean']++
      if (verdict === 'wrong') {
        wrongHere++
        const kind =
          truth === null
            ? 'blank'
            : typeof truth === 'string'
              ? 'mark'
              : truth.set !== undefined
                ? 'multiple row'
                : truth.light
                  ? 'light'
                  : 'multiple'
        const read = answer === null ? 'null' : 'letter'
        stats.wrongByKind[`${kind} read as ${read}`] = (stats.wrongByKind[`${kind} read as ${read}`] ?? 0) + 1
      }
      if (isMultiple(q) ? verdict === 'flagged' : answer !== null && typeof answer === 'object') {
        flagged = true
        flaggedWhat.push(`q${q + 1}`)
      }
    })
    for (const [g, { answer }] of (result.numeric ?? []).entries()) {
      const truth = sheet.gridTruth[g]
      const verdict = judgeGrid(truth, answer)
      gridCounts[verdict]++
      if (verdict === 'flagged') {
        flagged = true
        flaggedWhat.push(`grid ${numeric[g].number}`)
      }
      if (verdict === 'wrong') {
        wrongHere++
        const kind = `grid ${truth.value === null ? 'blank' : truth.light ? 'light' : 'number'} read as ${answer === null ? 'null' : 'number'}`
        stats.wrongByKind[kind] = (stats.wrongByKind[kind] ?? 0) + 1
      }
    }
    if (sheet.clean) {
      stats.cleanSheets++
      if (flagged) stats.cleanFlagged++
    }
    if (dumpDir && wrongHere > 0) dump(condition, n, jpeg, sheet, '')
    else if (dumpDir && sheet.clean && flagged) dump(condition, n, jpeg, sheet, 'flagged-')
    if (verbose && (wrongHere > 0 || (sheet.clean && flagged) || !codeRight || rollWrong))
      console.error(
        `${condition} ${n}: ${wrongHere} wrong${sheet.clean && flagged ? `, clean but flagged (${flaggedWhat.join(' ')})` : ''}${!codeRight || rollWrong ? ', WRONG LEARNER' : ''} ${JSON.stringify(photoSpec)}`,
      )
    if ((n + 1) % 50 === 0)
      console.error(`${condition}: ${n + 1} photos, ${((Date.now() - started) / 1000).toFixed(0)} s`)
  }
  const questions = counts.right + counts.flagged + counts.wrong
  const mp = condition === 'low-res' ? '2-3 MP' : '12 MP'
  console.log(`\n## ${condition}: ${photos} photos, questions read: ${questions}`)
  console.log(
    `questions read right: ${pct(counts.right, questions)} %, flagged: ${pct(counts.flagged, questions)} %, right or flagged: ${pct(counts.right + counts.flagged, questions)} % (target >= 99.9)`,
  )
  console.log(
    `questions flagged by the learner's own marks: ${pct(flaggedBy.learner, questions)} %, flagged, clean marks: ${flaggedBy.clean} = ${pct(flaggedBy.clean, questions)} %`,
  )
  console.log(
    `questions read wrong without a flag: ${counts.wrong} = ${pct(counts.wrong, questions)} % (target <= 0.05)`,
  )
  const rows = multipleCounts.right + multipleCounts.flagged + multipleCounts.wrong
  console.log(
    `multiple questions' rows (${rows}): right ${pct(multipleCounts.right, rows)} %, flagged ${pct(multipleCounts.flagged, rows)} %, right or flagged ${pct(multipleCounts.right + multipleCounts.flagged, rows)} %, wrong without a flag ${multipleCounts.wrong} = ${pct(multipleCounts.wrong, rows)} %`,
  )
  const grids = gridCounts.right + gridCounts.flagged + gridCounts.wrong
  console.log(
    `numeric grids (${grids}): right ${pct(gridCounts.right, grids)} %, flagged ${pct(gridCounts.flagged, grids)} %, right or flagged ${pct(gridCounts.right + gridCounts.flagged, grids)} %, wrong without a flag ${gridCounts.wrong} = ${pct(gridCounts.wrong, grids)} %`,
  )
  console.log(`read wrong, by what the learner did: ${JSON.stringify(stats.wrongByKind)}`)
  console.log(
    `cleanly marked sheets flagged: ${stats.cleanFlagged} of ${stats.cleanSheets} = ${pct(stats.cleanFlagged, stats.cleanSheets)} % (target <= 3)`,
  )
  console.log(
    `photos refused: ${stats.refused} = ${pct(stats.refused, photos)} % (target <= 3) ${JSON.stringify(stats.refusals)}`,
  )
  console.log(`sheets read for the wrong learner (QR or roll): ${stats.wrongLearner} (target 0)`)
  if (cpuMs.length)
    console.log(
      `CPU to read a ${mp} JPEG, one core: p50 ${percentile(cpuMs, 0.5).toFixed(0)} ms, p95 ${percentile(cpuMs, 0.95).toFixed(0)} ms (budget p95 < 1000 ms)`,
    )
  return {
    condition,
    questions,
    ...counts,
    flaggedClean: flaggedBy.clean,
    ...stats,
    p95: cpuMs.length ? percentile(cpuMs, 0.95) : NaN,
  }
}

// BENCH_READ=curl,lens reads only those of BENCH_CONDITIONS, each with the photos its place in the list draws:
// a subset of a recorded run's photos (and of its cache) without reading the rest.
const only = process.env.BENCH_READ ? process.env.BENCH_READ.split(',') : null
const rows = []
for (const [index, condition] of conditions.entries())
  if (!only || only.includes(condition)) rows.push(await runCondition(condition, index))
console.log(
  '\n| condition | photos | questions | right % | flagged % | flagged, clean marks % | wrong (no flag) | clean sheets flagged | refused | wrong learner | p95 ms |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|')
for (const r of rows)
  console.log(
    `| ${r.condition} | ${photos} | ${r.questions} | ${pct(r.right, r.questions)} | ${pct(r.flagged, r.questions)} | ${pct(r.flaggedClean, r.questions)} | ${r.wrong} (${pct(r.wrong, r.questions)} %) | ${r.cleanFlagged}/${r.cleanSheets} | ${r.refused} ${JSON.stringify(r.refusals)} | ${r.wrongLearner} | ${r.p95.toFixed(0)} |`,
  )
if (memory)
  console.log(
    `RSS of a process that only reads, while it reads 4 photos of 12 MP at once: ${mb(memory.before)} MB before, peak ${mb(memory.peak)} MB (budget < 400 MB)`,
  )

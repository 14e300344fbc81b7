// npm run bench:booklets: API.md "Written answers marked by rubric" budgets for written-answer booklet pages
// (docs/decisions/075), on phone-like photos of filled pages from server/test/fixtures/booklet-photos.ts:
//  1. Over BENCH_PAGES (default 300) seeded pages (8-12 MP; roster pages, blank booklets' first and later pages,
//     spare pages; one question, two questions, a deliberately faint bubble, none; tilted up to 25 degrees, any way up,
//     even, gradient or shadowed light, blurred up to 1.5 px, JPEG 60-90, and every third one under one of the hall
//     conditions of sheet-photo-conditions.ts): pages recorded without review (of those filled plainly), pages that
//     would be recorded on the wrong learner or question (the code's page, the roll grid, the questions), refused.
//  2. Forged and foreign codes (BENCH_FORGED, default 40 each): every one must be refused.
//  3. CPU time of one core (sharp held to one thread) to read a 12 MP page, p50 and p95 (budget: p95 under 1 s), and
//     to cut what markers see from its kept image (docs/decisions/089; no budget of its own, reported beside).
// The learner and question rules are the server's own (sittings/page-questions.ts and the code's learner);
// what the roster adds (a roll given to someone else since printing) is covered by the route tests.
import sharp from 'sharp'
import { readBookletPage } from '../server/src/sittings/reader/read-booklet-page.ts'
import { questionsOf } from '../server/src/sittings/page-questions.ts'
import { readBack } from '../server/src/sittings/booklet/booklet-code.ts'
import { answerPageImage, keptPageImage } from '../server/src/sittings/booklet-page-image.ts'
import { phonePhotoFor } from './phone-photo.mjs'

const { photographBookletPage } = await import('../server/test/fixtures/booklet-photos.ts')
const { seededRandom } = await import('../server/test/fixtures/seeded-random.ts')

const pages = Number(process.env.BENCH_PAGES ?? 300)
const forgedCount = Number(process.env.BENCH_FORGED ?? 40)
const secret = 'bench-secret'
const sittingId = 5
const numbers = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
// BENCH_HARD=1 adds a folded and a curled page to the hall conditions (the sheet reader refuses most curls: decision
// 066), beyond the tilt, blur, shadow and any-way-up of API.md's budget.
const hallConditions = ['hard-shadow', 'glare', 'motion-blur', 'whatsapp']
if (process.env.BENCH_HARD === '1') hallConditions.push('fold', 'curl')

function pageFor(n, random) {
  const kind = random()
  const rollNumber = 1 + Math.floor(random() * 999_998)
  const code =
    kind < 0.7
      ? { sittingId, kind: 'roster', page: 1 + Math.floor(random() * 8), rollNumber, userId: 100_000 + n }
      : kind < 0.8
        ? { sittingId, kind: 'blank', page: 1, serial: n + 1 }
        : kind < 0.9
          ? { sittingId, kind: 'blank', page: 2 + Math.floor(random() * 6), serial: n + 1 }
          : { sittingId, kind: 'spare', serial: n + 1 }
  const shape = random()
  const first = numbers[Math.floor(random() * numbers.length)]
  const second = numbers.find((number) => number !== first && random() < 0.3) ?? numbers.at(-1 - numbers.indexOf(first))
  const inks = ['pen', 'blue', 'pencil']
  const ink = () => inks[Math.floor(random() * inks.length)]
  let marks
  let plain = true
  if (shape < 0.7) marks = [{ number: first, style: ink() }]
  else if (shape < 0.9) marks = [first, second].map((number) => ({ number, style: ink() }))
  else if (shape < 0.95) {
    marks = [{ number: first, style: 'light' }]
    plain = false
  } else {
    marks = []
    plain = false
  }
  return {
    spec: { secret, code, numbers, marks, handRoll: rollNumber, pages: 8, learnerName: `Learner ${n}` },
    truth: { questions: marks.map((mark) => mark.number).sort((a, b) => a - b), rollNumber },
    plain,
  }
}

/** A phone photo as bench:omr draws them; every third one also under one of the hall's harder conditions. */
function photoFor(n, random, megapixels) {
  return {
    ...phonePhotoFor(n, random, megapixels),
    ...(n % 3 === 2 ? { condition: hallConditions[Math.floor(random() * hallConditions.length)] } : {}),
  }
}

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]
const pct = (part, whole) => (whole ? ((100 * part) / whole).toFixed(2) : 'n/a')
const cpuMs = (start) => {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

sharp.concurrency(1)
const options = { secret, sittingId, numbersFor: () => numbers }
const random = seededRandom(5801)
const counts = {
  plain: 0,
  plainRecorded: 0,
  recorded: 0,
  flagged: 0,
  refused: 0,
  wrong: 0,
  plainSpare: 0,
  spareRead: 0,
}
const refusals = {}
const byCondition = {}
const times = []
const maskTimes = []
const wrongOnes = []
for (let n = 0; n < pages; n++) {
  const { spec, truth, plain } = pageFor(n, random)
  const megapixels = n % 2 === 0 ? 12 : 8 + random() * 4
  const photo = photoFor(n, random, megapixels)
  const jpeg = await photographBookletPage(spec, photo)
  const start = process.cpuUsage()
  const result = await readBookletPage(jpeg, options)
  const ms = cpuMs(start)
  if (megapixels === 12) times.push(ms)
  const condition = photo.condition ?? 'standard'
  byCondition[condition] ??= { pages: 0, plain: 0, plainRecorded: 0, recorded: 0, wrong: 0, refused: 0 }
  byCondition[condition].pages++
  if (plain) {
    counts.plain++
    if (spec.code.kind === 'spare') counts.plainSpare++
    byCondition[condition].plain++
  }
  if (!result.ok) {
    if (process.env.BENCH_VERBOSE === '1')
      console.log('  refused:', JSON.stringify({ n, condition, refusal: result.refusal, plain }))
    counts.refused++
    byCondition[condition].refused++
    refusals[result.refusal] = (refusals[result.refusal] ?? 0) + 1
    continue
  }
  if (megapixels === 12) {
    const kept = await keptPageImage(jpeg)
    const maskStart = process.cpuUsage()
    await answerPageImage(kept, result.answerRegion)
    maskTimes.push(cpuMs(maskStart))
  }
  // What the server would do with it: the code's learner and page (roster), the roll grid's (first blank page,
  // spare page), a later blank page waits for its first; the questions by the server's rule.
  const read = questionsOf(result, new Set(numbers))
  const rollGrid = result.roll !== undefined
  const rollFlag = rollGrid && typeof result.roll !== 'number'
  // A roster page's code names its learner by a keyed tag (decision 089): what the printed page reads back as.
  const codeRight = JSON.stringify(result.code) === JSON.stringify(readBack(spec.code, secret))
  const rollWrong = rollGrid && typeof result.roll === 'number' && result.roll !== truth.rollNumber
  const flagged = read.flags.length > 0 || rollFlag
  const wrong = !codeRight || (!flagged && (rollWrong || read.questions.join() !== truth.questions.join()))
  if (wrong) {
    counts.wrong++
    byCondition[condition].wrong++
    wrongOnes.push({ n, condition, code: spec.code, truth, read: read.questions, roll: result.roll })
  } else if (flagged) {
    counts.flagged++
    if (plain && process.env.BENCH_VERBOSE === '1')
      console.log(
        '  flagged:',
        JSON.stringify({ n, condition, truth, marked: result.marked, doubtful: result.doubtful, roll: result.roll }),
      )
  } else {
    counts.recorded++
    // The server holds every spare page for a person (decision 089): read cleanly here, flagged `spare_page` there.
    if (spec.code.kind === 'spare' && plain) counts.spareRead++
    byCondition[condition].recorded++
    if (plain) {
      counts.plainRecorded++
      byCondition[condition].plainRecorded++
    }
  }
}

let forgedRefused = 0
let foreignRefused = 0
for (let n = 0; n < forgedCount; n++) {
  const { spec } = pageFor(10_000 + n, random)
  const photo = photoFor(10_000 + n, random, 8)
  const forged = await photographBookletPage({ ...spec, secret: `guess-${n}` }, photo)
  const foreign = await photographBookletPage({ ...spec, code: { ...spec.code, sittingId: sittingId + 1 + n } }, photo)
  const a = await readBookletPage(forged, options)
  const b = await readBookletPage(foreign, options)
  // Refused outright, or unreadable (a retake is asked for): never a page of this sitting.
  if (!a.ok) forgedRefused++
  if (!b.ok) foreignRefused++
}

console.log(`booklet pages read: ${pages} (${counts.plain} filled plainly; 12 MP: ${times.length})`)
console.log(
  `recorded without review: ${counts.recorded} (${pct(counts.recorded, pages)} % of all pages; ` +
    `${pct(counts.plainRecorded, counts.plain)} % of plainly filled ones; budget >= 97 %)`,
)
console.log(
  `of which spare pages read cleanly, which the server holds for a person (decision 089): ${counts.spareRead}; ` +
    `numbered pages plainly filled recorded without review: ` +
    `${pct(counts.plainRecorded - counts.spareRead, counts.plain - counts.plainSpare)} %`,
)
console.log(
  `flagged for review: ${counts.flagged}; refused (retake asked): ${counts.refused} ${JSON.stringify(refusals)}`,
)
console.log(`on the wrong learner, page or question: ${counts.wrong} (budget 0)`)
for (const one of wrongOnes) console.log('  wrong:', JSON.stringify(one))
console.log('by condition:', JSON.stringify(byCondition))
console.log(
  `forged codes refused: ${forgedRefused} / ${forgedCount}; foreign codes refused: ${foreignRefused} / ${forgedCount}`,
)
console.log(
  `CPU time to read a 12 MP page (one core): p50 ${percentile(times, 0.5)?.toFixed(0)} ms, ` +
    `p95 ${percentile(times, 0.95)?.toFixed(0)} ms (budget p95 < 1000 ms)`,
)
console.log(
  `CPU time to cut what markers see from a kept page (one core, phone rendition included): ` +
    `p50 ${percentile(maskTimes, 0.5)?.toFixed(0)} ms, p95 ${percentile(maskTimes, 0.95)?.toFixed(0)} ms`,
)

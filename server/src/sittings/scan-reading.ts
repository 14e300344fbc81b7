import type { OptionLabels, ScanBox, ScanFlag, SittingSet } from '@quiz/contracts'
import type { SheetReading } from './reader/read-sheet'
import type { SheetCode } from './sheet/sheet-code'
import { readNumber } from '@quiz/contracts/rules/numbers'
import { isMultipleRow, joinLetters, letterIndex, numericRow, type SittingSetPlan } from './sitting-sets'

export interface RosterPlace {
  roll_number: number
  user_id: number
  set_letter: string
}

/** The roster's places a reading looks up: the holder of a roll number now, and a learner's own place. */
export interface RosterLookup {
  byRoll: (rollNumber: number) => RosterPlace | undefined
  byLearner: (userId: number) => RosterPlace | undefined
}

export interface ScanReading {
  sheet: string
  rollNumber: number | null
  set: SittingSet | null
  userId: number | null
  answers: Record<string, string | null>
  flags: ScanFlag[]
}

/** One printed sheet: a roster sheet by roll and learner (two learners' sheets of one roll are two sheets). */
export const sheetKeyOf = (code: SheetCode) =>
  code.kind === 'blank' ? `B${code.serial}` : `R${code.rollNumber}${code.userId === null ? '' : `U${code.userId}`}`

const isSet = (plans: readonly SittingSetPlan[], set: unknown): set is SittingSet =>
  plans.some((plan) => plan.set === set)

/** The set whose rows a sheet is read with. */
export function readingSet(code: SheetCode, roster: ReadonlyMap<number, RosterPlace>): SittingSet | null {
  if (code.kind !== 'roster') return null
  let place = roster.get(code.rollNumber)
  if (code.userId !== null && place?.user_id !== code.userId)
    place = [...roster.values()].find((entry) => entry.user_id === code.userId)
  return (place?.set_letter as SittingSet | undefined) ?? null
}

/** A roster sheet's learner: the one its code names, at their roll now (docs/decisions/061). */
function rosterSheetPlace(code: Extract<SheetCode, { kind: 'roster' }>, roster: RosterLookup) {
  const holder = roster.byRoll(code.rollNumber)
  if (code.userId === null) return { place: holder, confirmed: false }
  if (holder?.user_id === code.userId) return { place: holder, confirmed: true }
  return { place: roster.byLearner(code.userId), confirmed: false }
}

// A roster sheet's learner is the one its signed QR code names, never the grid's: docs/decisions/055 "In the code".
export function interpretReading(
  reading: Pick<SheetReading, 'code' | 'roll' | 'set' | 'answers' | 'boxes' | 'numeric'>,
  plans: readonly SittingSetPlan[],
  labels: OptionLabels,
  roster: RosterLookup,
): ScanReading {
  const flags: ScanFlag[] = []
  const { code, boxes } = reading
  let rollNumber: number | null
  let userId: number | null = null
  let set: SittingSet | null
  const readSet = isSet(plans, reading.set) ? reading.set : null
  const oneSet = plans.length === 1 ? plans[0]!.set : null
  if (code.kind === 'roster') {
    const { place: entry, confirmed } = rosterSheetPlace(code, roster)
    // A sheet whose learner left the roster names no roll: its printed one is someone else's now, or nobody's.
    rollNumber = entry?.roll_number ?? (code.userId === null ? code.rollNumber : null)
    if (entry) userId = entry.user_id
    if (!entry || !confirmed || reading.roll !== code.rollNumber)
      flags.push({
        question: null,
        kind: 'roll',
        marks: typeof reading.roll === 'number' ? [String(reading.roll)] : [],
        box: boxes.roll,
      })
    set = (entry?.set_letter as SittingSet | undefined) ?? readSet ?? oneSet
    if (set === null || (reading.set !== set && reading.set !== null && oneSet === null))
      flags.push({ question: null, kind: 'set', marks: readSet ? [readSet] : [], box: boxes.set })
  } else {
    rollNumber = typeof reading.roll === 'number' && reading.roll > 0 ? reading.roll : null
    const entry = rollNumber === null ? undefined : roster.byRoll(rollNumber)
    if (entry) userId = entry.user_id
    else
      flags.push({
        question: null,
        kind: 'roll',
        marks: rollNumber === null ? [] : [String(rollNumber)],
        box: boxes.roll,
      })
    set = readSet ?? (reading.set === null ? oneSet : null)
    if (set === null) flags.push({ question: null, kind: 'set', marks: [], box: boxes.set })
  }
  const plan = set === null ? undefined : plans.find((candidate) => candidate.set === set)
  const answers: Record<string, string | null> = {}
  for (const { number, answer: read, box } of reading.answers ?? []) {
    // A multiple question's row takes several marks: clear ones are its answer, joined (decision 129).
    const answer =
      isMultipleRow(plan, number) &&
      read !== null &&
      typeof read !== 'string' &&
      read.flag === 'multiple' &&
      !read.doubtful
        ? joinLetters(labels, read.marks)
        : read
    if (answer === null || typeof answer === 'string') {
      // A blank sheet's row may print more bubbles than this set's question has: a mark there is for a person.
      const options = plan?.options[number - 1]?.length
      // A mark at a written question's number of this set (a blank sheet prints every set's) is for a person.
      if (answer === null && options === 0) continue
      const beyond =
        answer !== null && options !== undefined && [...answer].some((l) => letterIndex(labels, l) >= options)
      if (beyond) {
        flags.push({ question: number, kind: 'unclear', marks: [...answer], box })
        answers[String(number)] = null
      } else answers[String(number)] = answer
    } else {
      // On a multiple row several marks are no fault: what is doubtful there is the faint bubbles beside them.
      const multipleRow = isMultipleRow(plan, number)
      const marks = multipleRow ? [...joinLetters(labels, [...answer.marks, ...(answer.doubtful ?? [])])] : answer.marks
      flags.push({ question: number, kind: multipleRow ? 'unclear' : answer.flag, marks, box })
      answers[String(number)] = null
    }
  }
  // A numeric question's grid gives its number, read again with its decimals; a doubtful grid is for a person (129).
  for (const { number, answer: read, box } of reading.numeric ?? []) {
    // Before the set is known every grid reads as numeric; a blank sheet prints every set's grids, and a mark in one
    // at a number that is not numeric in this set is for a person.
    const row = plan ? numericRow(plan, number) : { decimals: null }
    if (!row && read === null) continue
    const value = typeof read === 'string' && row ? readNumber(read, row.decimals) : null
    if (read === null) answers[String(number)] = null
    else if (value?.ok) answers[String(number)] = value.text
    else {
      const marks = typeof read === 'string' ? [read] : read.marks
      flags.push({ question: number, kind: 'numeric_unclear', marks, box })
      if (row) answers[String(number)] = null
    }
  }
  return { sheet: sheetKeyOf(code), rollNumber, set, userId, answers, flags }
}

/** The earlier scan a photo retakes, if any: a blank sheet's only for the same roll (decision 055 "In the code"). */
export function retakeOf<T extends { sheet: string; roll_number: number | null }>(
  reading: ScanReading,
  scans: readonly T[],
  rollBox: ScanBox,
): { existing: T | undefined; reading: ScanReading } {
  const existing = reading.sheet.startsWith('B')
    ? scans.find((scan) => scan.roll_number === reading.rollNumber)
    : scans.find((scan) => scan.sheet === reading.sheet)
  const copy = () => 1 + Math.max(...scans.map((scan) => Number(scan.sheet.split('/')[1] ?? 1)))
  const sheet = existing?.sheet ?? (scans.length === 0 ? reading.sheet : `${reading.sheet}/${copy()}`)
  if (!sheet.includes('/')) return { existing, reading }
  const marks = reading.rollNumber === null ? [] : [String(reading.rollNumber)]
  const flags = reading.flags.some((flag) => flag.kind === 'roll')
    ? reading.flags
    : [{ question: null, kind: 'roll' as const, marks, box: rollBox }, ...reading.flags]
  return { existing, reading: { ...reading, sheet, flags } }
}

import type { OptionLabels, ScanFlag, SittingSet } from '@quiz/contracts'
import type { SheetReading } from './reader/read-sheet'
import type { SheetCode } from './sheet/sheet-code'
import { letterIndex, type SittingSetPlan } from './sitting-sets'

export interface RosterPlace {
  user_id: number
  set_letter: string
}

export interface ScanReading {
  sheet: string
  rollNumber: number | null
  set: SittingSet | null
  userId: number | null
  answers: Record<string, string | null>
  flags: ScanFlag[]
}

export const sheetKeyOf = (code: SheetCode) => (code.kind === 'roster' ? `R${code.rollNumber}` : `B${code.serial}`)

const isSet = (plans: readonly SittingSetPlan[], set: unknown): set is SittingSet =>
  plans.some((plan) => plan.set === set)

/**
 * The set whose rows a sheet is read with. A roster sheet was printed for its learner's set; a blank one prints every
 * set's bubbles (sitting-sets.ts blankLayout), so it is read whole and its letters checked once the set is known.
 */
export function readingSet(code: SheetCode, roster: ReadonlyMap<number, RosterPlace>): SittingSet | null {
  if (code.kind !== 'roster') return null
  return (roster.get(code.rollNumber)?.set_letter as SittingSet | undefined) ?? null
}

// A roster sheet's learner is the one its signed QR code names, never the grid's: docs/decisions/055 "In the code".
export function interpretReading(
  reading: Pick<SheetReading, 'code' | 'roll' | 'set' | 'answers' | 'boxes'>,
  plans: readonly SittingSetPlan[],
  labels: OptionLabels,
  rosterEntry: (rollNumber: number) => RosterPlace | undefined,
): ScanReading {
  const flags: ScanFlag[] = []
  const { code, boxes } = reading
  let rollNumber: number | null
  let userId: number | null = null
  let set: SittingSet | null
  const readSet = isSet(plans, reading.set) ? reading.set : null
  const oneSet = plans.length === 1 ? plans[0]!.set : null
  if (code.kind === 'roster') {
    rollNumber = code.rollNumber
    const entry = rosterEntry(code.rollNumber)
    if (entry) userId = entry.user_id
    if (!entry || reading.roll !== code.rollNumber)
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
    const entry = rollNumber === null ? undefined : rosterEntry(rollNumber)
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
  for (const { number, answer, box } of reading.answers ?? []) {
    if (answer === null || typeof answer === 'string') {
      // A blank sheet's row may print more bubbles than this set's question has: a mark there is for a person.
      const options = plan?.options[number - 1]?.length
      if (answer !== null && options !== undefined && letterIndex(labels, answer) >= options) {
        flags.push({ question: number, kind: 'unclear', marks: [answer], box })
        answers[String(number)] = null
      } else answers[String(number)] = answer
    } else {
      flags.push({ question: number, kind: answer.flag, marks: answer.marks, box })
      answers[String(number)] = null
    }
  }
  return { sheet: sheetKeyOf(code), rollNumber, set, userId, answers, flags }
}

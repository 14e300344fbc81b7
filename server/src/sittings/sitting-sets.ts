import { randomInt } from 'node:crypto'
import { OPTION_LABELS, SITTING_SETS, type OptionLabels, type SittingSet } from '@quiz/contracts'
import { shuffled } from '../lib/random'
import type { AttemptSection } from '../questions/sections'
import { buildSheetLayout, type NumericGridSpec, type SheetLayout } from './sheet/sheet-layout'
import { MAX_NUMERIC_DIGITS, type NumericGridSize } from './sheet/numeric-grid'

/** `order` indexes into the sitting's paper (set A's order); `seed` made it. */
export interface SittingSetPlan {
  set: SittingSet
  seed: number
  order: number[]
  options: number[][]
  /** The printed numbers of the set's multiple questions: rows taking several marks (absent on older sittings). */
  multiple?: number[]
  /**
   * The set's numeric questions by printed number, with their grid's size and `decimals` (decision 129; absent on
   * older sittings, whose numeric questions have no grid).
   */
  numeric?: NumericRow[]
}

export interface NumericRow extends NumericGridSize {
  number: number
  decimals: number | null
}

/** A numeric question's grid size and decimals, by paper index (null for other types). */
export type NumericSizes = readonly ((NumericGridSize & { decimals: number | null }) | null | undefined)[]

/** mulberry32: a small seeded generator, so a set's order follows from its stored seed. */
function seeded(seed: number) {
  let state = seed >>> 0
  return (max: number) => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * max)
  }
}

/**
 * B to D shuffle within sections and questions, so neighbours' booklets and sheets differ. A passage's questions
 * (the same `passageIds` entry, side by side) move as one, in their order (API.md "Question types"); a paper without
 * passages draws exactly as before, each question its own unit.
 */
export function planSets(
  count: number,
  sections: readonly Pick<AttemptSection, 'count'>[],
  optionIds: readonly (readonly number[])[],
  newSeed: () => number = () => randomInt(2 ** 31),
  passageIds: readonly (number | null)[] = [],
  types: readonly string[] = [],
  grids: NumericSizes = [],
): SittingSetPlan[] {
  const inPaperOrder = optionIds.map((_, index) => index)
  const multipleOf = (order: readonly number[]) =>
    order.flatMap((question, row) => (types[question] === 'multiple' ? [row + 1] : []))
  const numericOf = (order: readonly number[]) =>
    order.flatMap((question, row) => {
      const grid = grids[question]
      return grid ? [{ number: row + 1, whole: grid.whole, fraction: grid.fraction, decimals: grid.decimals }] : []
    })
  return SITTING_SETS.slice(0, count).map((set, index) => {
    if (index === 0)
      return {
        set,
        seed: 0,
        order: inPaperOrder,
        options: optionIds.map((ids) => [...ids]),
        multiple: multipleOf(inPaperOrder),
        ...(grids.length > 0 && { numeric: numericOf(inPaperOrder) }),
      }
    const seed = newSeed()
    const random = seeded(seed)
    let first = 0
    const order = sections.flatMap((section) => {
      const run = inPaperOrder.slice(first, first + section.count)
      first += section.count
      return shuffled(passageUnits(run, passageIds), random).flat()
    })
    const options = order.map((question) => shuffled(optionIds[question]!, random))
    return {
      set,
      seed,
      order,
      options,
      multiple: multipleOf(order),
      ...(grids.length > 0 && { numeric: numericOf(order) }),
    }
  })
}

/** Runs of neighbouring questions under one passage, each other question alone. */
function passageUnits(run: readonly number[], passageIds: readonly (number | null)[]): number[][] {
  const units: number[][] = []
  for (const index of run) {
    const passage = passageIds[index] ?? null
    const last = units.at(-1)
    if (passage !== null && last && passageIds[last[0]!] === passage) last.push(index)
    else units.push([index])
  }
  return units
}

export const parseSets = (json: string) => JSON.parse(json) as SittingSetPlan[]

export const setLetters = (plans: readonly SittingSetPlan[]) => plans.map((plan) => plan.set)

/** The printed numbers of the set's choice questions: a written one has no row on the sheet (decision 075). */
export const choiceNumbers = (plan: Pick<SittingSetPlan, 'options'>) =>
  plan.options.flatMap((ids, row) => (ids.length > 0 ? [row + 1] : []))

/** Every number that is a choice question in some set, ascending: the rows of a blank sheet. */
export const anySetChoiceNumbers = (plans: readonly Pick<SittingSetPlan, 'options'>[]) =>
  [...new Set(plans.flatMap(choiceNumbers))].sort((a, b) => a - b)

/** The set's numeric question with that printed number (a grid on the sheet), if it is one. */
export const numericRow = (plan: Pick<SittingSetPlan, 'numeric'> | undefined, number: number) =>
  plan?.numeric?.find((row) => row.number === number)

/** Every number that is a numeric question in some set, ascending: the grids of a blank sheet. */
export const anySetNumericNumbers = (plans: readonly Pick<SittingSetPlan, 'numeric'>[]) =>
  [...new Set(plans.flatMap((plan) => (plan.numeric ?? []).map((row) => row.number)))].sort((a, b) => a - b)

/** Whether the paper has any question the answer sheet prints (a written-only paper has none: booklets only). */
export const hasSheet = (plans: readonly Pick<SittingSetPlan, 'options' | 'numeric'>[]) =>
  anySetChoiceNumbers(plans).length > 0 || anySetNumericNumbers(plans).length > 0

/** Whether the set has written questions: numbers with no row and no grid, answered in the booklet. */
export const hasWrittenNumbers = (plan: Pick<SittingSetPlan, 'options' | 'numeric'>) =>
  plan.options.some((ids, row) => ids.length === 0 && !numericRow(plan, row + 1))

const gridSpecs = (rows: readonly NumericRow[]): NumericGridSpec[] =>
  rows.map(({ number, whole, fraction }) => ({ number, whole, fraction }))

/** The set's sheet: one row for each choice question, numbered as the paper prints it, rows packed without gaps. */
export function setLayout(plan: SittingSetPlan, labels: OptionLabels, sets: number): SheetLayout {
  const numbers = choiceNumbers(plan)
  return buildSheetLayout({
    questionCount: numbers.length,
    optionCounts: numbers.map((number) => plan.options[number - 1]!.length),
    numbers,
    labels,
    sets,
    numeric: gridSpecs(plan.numeric ?? []),
  })
}

/** A blank sheet serves any set: each number's most options in any set (decision 055 "In the code"). */
export function blankLayout(plans: readonly SittingSetPlan[], labels: OptionLabels): SheetLayout {
  const numbers = anySetChoiceNumbers(plans)
  return buildSheetLayout({
    questionCount: numbers.length,
    optionCounts: numbers.map((number) => Math.max(...plans.map((plan) => plan.options[number - 1]!.length))),
    numbers,
    labels,
    sets: plans.length,
    // A number numeric in several sets prints the widest grid any of them needs.
    numeric: anySetNumericNumbers(plans).map((number) => {
      const rows = plans.flatMap((plan) => numericRow(plan, number) ?? [])
      const whole = Math.max(...rows.map((row) => row.whole))
      return { number, whole, fraction: Math.min(MAX_NUMERIC_DIGITS - whole, ...rows.map((row) => row.fraction)) }
    }),
  })
}

export const letterIndex = (labels: OptionLabels, letter: string) =>
  (OPTION_LABELS[labels] as readonly string[]).indexOf(letter)

export const letterAt = (labels: OptionLabels, index: number) => OPTION_LABELS[labels][index]!

export const isMultipleRow = (plan: Pick<SittingSetPlan, 'multiple'> | undefined, number: number) =>
  plan?.multiple?.includes(number) ?? false

/** A multiple row's letters as the scan keeps them: each once, in the labels' order, joined (`"AC"`). */
export const joinLetters = (labels: OptionLabels, letters: readonly string[]) =>
  [...new Set(letters)].sort((a, b) => letterIndex(labels, a) - letterIndex(labels, b)).join('')

/** The option indexes of joined letters; -1 for a character that is not a label. */
export const letterIndexes = (labels: OptionLabels, joined: string) =>
  [...joined].map((letter) => letterIndex(labels, letter))

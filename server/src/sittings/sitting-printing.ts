import {
  bookletLimits,
  bookletMessages,
  fromHundredths,
  OPTION_LABELS,
  paperInstructions,
  sittingMessages,
  type SittingPaper,
  type SittingSet,
  type LearnerPassage,
} from '@quiz/contracts'
import { AppError, Conflict, NotFound, ValidationFailed } from '../http/errors'
import { attemptSections } from '../questions/sections'
import { signBookletCode, type PrintedBooklet } from './booklet/booklet-code'
import { buildBookletLayout, hasRollGrid } from './booklet/booklet-layout'
import { renderBookletSvg, type BookletHolder } from './booklet/booklet-svg'
import { writtenOf } from './booklet-join'
import { signSheetCode } from './sheet/sheet-code'
import { renderSheetSvg } from './sheet/sheet-svg'
import { blankLayout, hasSheet, hasWrittenNumbers, setLayout } from './sitting-sets'
import { findSittingView, planOf, sheetSecret, type SittingsDeps, type SittingView } from './sitting-view'
import { findRosterEntry } from './sittings.repository'

/** What a sitting prints: its paper, answer sheets and written-answer booklets, and their geometry. */
export function createSittingPrinting({ database, config, papers }: SittingsDeps) {
  const { db } = database
  const secret = sheetSecret(config.jwtSecret)

  async function booklet(sittingId: number, set: SittingSet): Promise<SittingPaper> {
    const sitting = await findSittingView(db, sittingId)
    const plan = planOf(sitting, set)
    const paper = await papers.paperFor(db, sitting.revision_ids)
    const letters = OPTION_LABELS[sitting.labels]
    let printed = 0
    // Each passage once, in the order its first question is printed (the booklet prints it there).
    const passages = new Map<number, LearnerPassage>()
    const sections = attemptSections(sitting.sections, plan.order.length).map((section) => {
      const questions = plan.order.slice(printed, printed + section.count).map((paperIndex, offset) => {
        const number = printed + offset + 1
        const { learner } = paper.questions[paperIndex]!
        const byId = new Map(learner.options.map((option) => [option.id, option]))
        if (learner.passage) passages.set(learner.passage.id, learner.passage)
        return {
          number,
          type: learner.type,
          passage_id: learner.passage?.id ?? null,
          text: learner.text,
          image: learner.image,
          options: plan.options[number - 1]!.map((optionId, index) => {
            const option = byId.get(optionId)!
            return { label: letters[index]!, text: option.text, image: option.image }
          }),
        }
      })
      printed += section.count
      return {
        title: { en: section.title_en, ne: section.title_ne },
        marks_correct: fromHundredths(section.marks_correct),
        marks_wrong: fromHundredths(section.marks_wrong),
        questions,
      }
    })
    const kinds = {
      choice: paper.questions.some((question) => question.type !== 'written'),
      written: paper.questions.some((question) => question.type === 'written'),
    }
    return { set, instructions: { ...paperInstructions(kinds) }, passages: [...passages.values()], sections }
  }

  /** The sitting, or 409 when its paper has no choice question: a written-only paper has booklets, no sheet. */
  async function sheetSitting(sittingId: number) {
    const sitting = await findSittingView(db, sittingId)
    if (!hasSheet(sitting.plans)) throw new AppError(409, 'paper_not_printable', sittingMessages.noChoiceQuestions)
    return sitting
  }

  /** A roster learner's sheet (`{roll}.svg`: roll and set printed filled), or a blank one with its serial. */
  async function sheetSvg(sittingId: number, sheet: string, serial: number | undefined): Promise<string> {
    const sitting = await sheetSitting(sittingId)
    // API.md: the sheet names the quiz; a sitting with a title of its own is named under it.
    const quizTitle = sitting.quiz_title_en
    const sittingTitle = sitting.title_en !== quizTitle ? sitting.title_en : undefined
    const hasWritten = hasWrittenNumbers(sitting.plans[0]!)
    if (sheet === 'blank.svg') {
      if (serial === undefined) throw new ValidationFailed({ serial: ['Give the blank sheet a serial number.'] })
      return renderSheetSvg({
        layout: blankLayout(sitting.plans, sitting.labels),
        labels: sitting.labels,
        qrPayload: signSheetCode({ sittingId, kind: 'blank', serial }, secret),
        quizTitle,
        sittingTitle,
        holder: { kind: 'blank', serial },
        hasWritten,
      })
    }
    const rollNumber = Number(sheet.slice(0, -'.svg'.length))
    const entry = await findRosterEntry(db, sittingId, rollNumber)
    if (!entry) throw new NotFound(sittingMessages.rollNotOnRoster(rollNumber))
    const set = entry.set_letter as SittingSet
    return renderSheetSvg({
      layout: setLayout(planOf(sitting, set), sitting.labels, sitting.plans.length),
      labels: sitting.labels,
      qrPayload: signSheetCode({ sittingId, kind: 'roster', rollNumber, userId: entry.user_id }, secret),
      quizTitle,
      sittingTitle,
      holder: { kind: 'roster', learnerName: entry.full_name || entry.username, rollNumber, set },
      hasWritten,
    })
  }

  /** The sitting's written question numbers, for the set or every set's together; 409 when it has none to print. */
  async function bookletNumbers(sitting: SittingView, set: SittingSet | null) {
    const written = await writtenOf(db, papers, sitting)
    const numbers = set === null ? written.union : [...(written.bySet.get(set)?.keys() ?? [])]
    if (numbers.length === 0) throw new Conflict(bookletMessages.noWrittenQuestions)
    if (numbers.length > bookletLimits.questions)
      throw new AppError(409, 'paper_not_printable', bookletMessages.tooManyWritten(numbers.length))
    return numbers
  }

  /** A booklet page's SVG: a roster learner's, a blank booklet's or a spare page (API.md "On paper"). */
  async function bookletSvg(sittingId: number, booklet: string, page: number, serial: number | undefined) {
    const sitting = await findSittingView(db, sittingId)
    const quizTitle = sitting.quiz_title_en
    const sittingTitle = sitting.title_en !== quizTitle ? sitting.title_en : undefined
    const of = sitting.booklet_pages
    let code: PrintedBooklet
    let holder: BookletHolder
    let set: SittingSet | null = null
    if (booklet === 'blank.svg' || booklet === 'extra.svg') {
      if (serial === undefined) throw new ValidationFailed({ serial: [bookletMessages.serialNeeded] })
      code = booklet === 'extra.svg' ? { sittingId, kind: 'spare', serial } : { sittingId, kind: 'blank', page, serial }
      holder = { kind: code.kind === 'spare' ? 'spare' : 'blank', serial }
    } else {
      const rollNumber = Number(booklet.slice(0, -'.svg'.length))
      const entry = await findRosterEntry(db, sittingId, rollNumber)
      if (!entry) throw new NotFound(sittingMessages.rollNotOnRoster(rollNumber))
      set = entry.set_letter as SittingSet
      code = { sittingId, kind: 'roster', page, rollNumber, userId: entry.user_id }
      holder = { kind: 'roster', learnerName: entry.full_name || entry.username, rollNumber }
    }
    if (code.kind !== 'spare' && page > of)
      throw new ValidationFailed({ page: [bookletMessages.pageBeyondBooklet(page, of)] })
    const numbers = await bookletNumbers(sitting, set)
    return renderBookletSvg({
      layout: buildBookletLayout({ numbers, rollGrid: hasRollGrid(code) }),
      qrPayload: signBookletCode(code, secret),
      quizTitle,
      sittingTitle,
      holder,
      page: code.kind === 'spare' ? null : { number: page, of },
    })
  }

  /** The booklet page's geometry: a roster learner's of `set`, or a blank booklet's (every set's numbers, a roll grid). */
  async function bookletLayout(sittingId: number, set: SittingSet | undefined) {
    const sitting = await findSittingView(db, sittingId)
    if (set !== undefined) planOf(sitting, set)
    const numbers = await bookletNumbers(sitting, set ?? null)
    return buildBookletLayout({ numbers, rollGrid: set === undefined })
  }

  async function sheetLayout(sittingId: number, set: SittingSet) {
    const sitting = await sheetSitting(sittingId)
    return setLayout(planOf(sitting, set), sitting.labels, sitting.plans.length)
  }

  return { booklet, sheetSvg, sheetLayout, bookletSvg, bookletLayout }
}

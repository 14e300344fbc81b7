import {
  bookletLimits,
  bookletMessages,
  fromHundredths,
  OPTION_LABELS,
  paperInstructions,
  phoneInListing,
  sittingLimits,
  sittingMessages,
  type Roster,
  type RosterInput,
  type Sitting,
  type SittingCreate,
  type SittingList,
  type SittingPaper,
  type SittingSet,
  type SittingUpdate,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { changedFields, recordAudit, type UserActor } from '../audit/audit-log'
import type { DB } from '../db/schema'
import { AppError, Conflict, NotFound, ValidationFailed, type FieldErrors } from '../http/errors'
import { toIso } from '../lib/clock'
import { attemptSections } from '../questions/sections'
import { signBookletCode, type PrintedBooklet } from './booklet/booklet-code'
import { buildBookletLayout, hasRollGrid } from './booklet/booklet-layout'
import { renderBookletSvg, type BookletHolder } from './booklet/booklet-svg'
import { writtenOf } from './booklet-join'
import { signSheetCode } from './sheet/sheet-code'
import { renderSheetSvg } from './sheet/sheet-svg'
import { blankLayout, hasSheet, parseSets, planSets, setLayout, setLetters } from './sitting-sets'
import { deadlineOf, findSittingView, planOf, sheetSecret, type SittingsDeps, type SittingView } from './sitting-view'
import {
  countScans,
  countSittingParts,
  deleteSitting,
  findRosterEntry,
  findSitting,
  findUsersByPhones,
  findUsersByUsernameKeys,
  insertSitting,
  listRecordedPlaces,
  listRoster,
  listSittings,
  replaceRoster,
  updateSitting,
  type RosterRow,
  type SittingRow,
} from './sittings.repository'

/** A roster's phone number as the learner registered it ("+977 984-1000001" is 9841000001). */
const phoneOf = (text: string) => phoneInListing(text) ?? text.trim()

interface RosterEntry {
  userId: number
  rollNumber: number
  set: string
}

const learnerOf = (row: Pick<RosterRow, 'user_id' | 'username' | 'full_name'>) => ({
  id: row.user_id,
  username: row.username,
  full_name: row.full_name,
})

export function createSittingsService({ database, clock, config, papers, paperAttempts }: SittingsDeps) {
  const { db } = database
  const secret = sheetSecret(config.jwtSecret)

  async function toSittings(rows: readonly SittingRow[]): Promise<Sitting[]> {
    const counts = await countSittingParts(
      db,
      rows.map((row) => row.id),
    )
    return rows.map((row) => {
      const count = counts.get(row.id)!
      return {
        id: row.id,
        quiz_id: row.quiz_id,
        title: { en: row.title_en, ne: row.title_ne },
        held_at: toIso(row.held_at),
        sets: setLetters(parseSets(row.sets)),
        option_labels: row.option_labels,
        question_count: (JSON.parse(row.revision_ids) as number[]).length,
        status: row.status,
        roster_count: count.roster,
        scans: { recorded: count.recorded, needs_review: count.needs_review },
        booklet_pages: row.booklet_pages,
      }
    })
  }

  async function getSitting(sittingId: number): Promise<Sitting> {
    const row = await findSitting(db, sittingId)
    if (!row) throw new NotFound(sittingMessages.notFound)
    return (await toSittings([row]))[0]!
  }

  /**
   * Refuses a paper that cannot be printed: no questions at all, over 200 choice questions (the sheet's rows; written
   * questions are not on it), or a choice question of more than 5 options. A written-only paper prints booklets only.
   */
  function checkPrintable(optionIds: readonly (readonly number[])[], questionIds: readonly number[]) {
    const choiceCount = optionIds.filter((ids) => ids.length > 0).length
    if (optionIds.length === 0 || choiceCount > sittingLimits.questions)
      throw new AppError(409, 'paper_not_printable', sittingMessages.questionCount(choiceCount), undefined, undefined, {
        question_count: choiceCount,
      })
    const wide = optionIds.flatMap((ids, index) =>
      ids.length > sittingLimits.options
        ? [{ number: index + 1, question_id: questionIds[index]!, options: ids.length }]
        : [],
    )
    if (wide.length > 0)
      throw new AppError(
        409,
        'paper_not_printable',
        sittingMessages.tooManyOptions(wide.map((question) => question.number)),
        undefined,
        undefined,
        { questions: wide },
      )
  }

  async function createSitting(quizId: number, body: SittingCreate, actor: UserActor): Promise<Sitting> {
    const now = clock.now()
    const id = await database.transaction(async (trx) => {
      const quiz = await paperAttempts.findQuiz(trx, quizId)
      if (!quiz) throw new NotFound(sittingMessages.quizNotFound)
      const drawn = await paperAttempts.drawSittingPaper(trx, quiz, actor.id, now)
      const paper = await papers.paperFor(trx, JSON.stringify(drawn.revisionIds))
      const optionIds = paper.questions.map((question) => question.learner.options.map((option) => option.id))
      checkPrintable(
        optionIds,
        paper.questions.map((question) => question.questionId),
      )
      const title = body.title ?? { en: quiz.title_en, ne: quiz.title_ne }
      const heldAt = Date.parse(body.held_at)
      const sets = planSets(body.sets ?? 1, drawn.sections, optionIds)
      const labels = body.option_labels ?? 'latin'
      const sittingId = await insertSitting(trx, {
        quiz_id: quiz.id,
        title_en: title.en,
        title_ne: title.ne ?? '',
        held_at: heldAt,
        option_labels: labels,
        revision_ids: JSON.stringify(drawn.revisionIds),
        sections: JSON.stringify(drawn.sections),
        sets: JSON.stringify(sets),
        booklet_pages: body.booklet_pages ?? 4,
        created_by: actor.id,
        created_at: now,
      })
      await recordAudit(trx, actor, now, {
        action: 'create',
        entityType: 'sitting',
        entityId: sittingId,
        label: title.en,
        after: {
          quiz_id: quiz.id,
          held_at: toIso(heldAt),
          sets: sets.length,
          option_labels: labels,
          question_count: optionIds.length,
        },
      })
      return sittingId
    })
    return getSitting(id)
  }

  async function listQuizSittings(quizId: number): Promise<SittingList> {
    if (!(await paperAttempts.findQuiz(db, quizId))) throw new NotFound(sittingMessages.quizNotFound)
    const results = await toSittings(await listSittings(db, quizId))
    return { count: results.length, results }
  }

  async function updateSittingDetails(sittingId: number, body: SittingUpdate, actor: UserActor): Promise<Sitting> {
    const now = clock.now()
    await database.transaction(async (trx) => {
      const sitting = await findSittingView(trx, sittingId, { lock: database.dialect === 'postgres' })
      const before = {
        title: { en: sitting.title_en, ne: sitting.title_ne },
        held_at: toIso(sitting.held_at),
        status: sitting.status,
        booklet_pages: sitting.booklet_pages,
      }
      const heldAt = body.held_at !== undefined ? Date.parse(body.held_at) : sitting.held_at
      const title = body.title ? { en: body.title.en, ne: body.title.ne ?? '' } : before.title
      const status = body.status ?? sitting.status
      const bookletPages = body.booklet_pages ?? sitting.booklet_pages
      await updateSitting(trx, sittingId, {
        title_en: title.en,
        title_ne: title.ne,
        held_at: heldAt,
        status,
        booklet_pages: bookletPages,
      })
      if (heldAt !== sitting.held_at)
        await paperAttempts.move(trx, sittingId, heldAt, deadlineOf({ ...sitting, held_at: heldAt }))
      const change = changedFields(before, { title, held_at: toIso(heldAt), status, booklet_pages: bookletPages })
      await recordAudit(trx, actor, now, {
        action: 'update',
        entityType: 'sitting',
        entityId: sittingId,
        label: title.en,
        ...change,
      })
    })
    return getSitting(sittingId)
  }

  async function removeSitting(sittingId: number, actor: UserActor) {
    const now = clock.now()
    await database.transaction(async (trx) => {
      const sitting = await findSittingView(trx, sittingId, { lock: database.dialect === 'postgres' })
      if ((await countScans(trx, sittingId, 'recorded')) > 0) throw new Conflict(sittingMessages.hasRecordedScans)
      await deleteSitting(trx, sittingId)
      await recordAudit(trx, actor, now, {
        action: 'delete',
        entityType: 'sitting',
        entityId: sittingId,
        label: sitting.title_en,
        before: { quiz_id: sitting.quiz_id, held_at: toIso(sitting.held_at) },
      })
    })
  }

  async function booklet(sittingId: number, set: SittingSet): Promise<SittingPaper> {
    const sitting = await findSittingView(db, sittingId)
    const plan = planOf(sitting, set)
    const paper = await papers.paperFor(db, sitting.revision_ids)
    const letters = OPTION_LABELS[sitting.labels]
    let printed = 0
    const sections = attemptSections(sitting.sections, plan.order.length).map((section) => {
      const questions = plan.order.slice(printed, printed + section.count).map((paperIndex, offset) => {
        const number = printed + offset + 1
        const { learner } = paper.questions[paperIndex]!
        const byId = new Map(learner.options.map((option) => [option.id, option]))
        return {
          number,
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
    return { set, instructions: { ...paperInstructions(kinds) }, sections }
  }

  async function getRoster(sittingId: number): Promise<Roster> {
    await findSittingView(db, sittingId)
    return {
      roster: (await listRoster(db, sittingId)).map((row) => ({
        roll_number: row.roll_number,
        set: row.set_letter as SittingSet,
        user: learnerOf(row),
      })),
    }
  }

  /**
   * A learner with a recorded sheet keeps their roll number: moving or dropping them would make their printed sheet
   * name another learner's roll, so it is refused (409) naming the rolls, and nothing is stored (docs/decisions/061).
   */
  async function checkRecordedPlaces(trx: Kysely<DB>, sittingId: number, entries: readonly RosterEntry[]) {
    const kept = new Set(entries.map((entry) => `${entry.rollNumber}:${entry.userId}`))
    const moved = (await listRecordedPlaces(trx, sittingId)).filter(
      (place) => !kept.has(`${place.roll_number}:${place.user_id}`),
    )
    if (moved.length > 0)
      throw new AppError(
        409,
        'conflict',
        sittingMessages.rollRecorded(moved.map((place) => ({ roll: place.roll_number, username: place.username }))),
        undefined,
        undefined,
        { roll_numbers: moved.map((place) => place.roll_number) },
      )
  }

  /** Any problem refuses the whole list, naming each entry, and nothing is stored. */
  async function putRoster(sittingId: number, body: RosterInput, actor: UserActor): Promise<Roster> {
    const now = clock.now()
    await database.transaction(async (trx) => {
      const sitting = await findSittingView(trx, sittingId, { lock: database.dialect === 'postgres' })
      const letters = setLetters(sitting.plans)
      const learners = body.learners
      const byName = new Map(
        (
          await findUsersByUsernameKeys(
            trx,
            learners.flatMap((entry) => (entry.username ? [entry.username.toLowerCase()] : [])),
          )
        ).map((user) => [user.username_key, user.id]),
      )
      const byPhone = new Map(
        (
          await findUsersByPhones(
            trx,
            learners.flatMap((entry) => (!entry.username && entry.phone_number ? [phoneOf(entry.phone_number)] : [])),
          )
        ).map((user) => [user.phone_number, user.id]),
      )
      const errors: FieldErrors = {}
      const fail = (path: string, message: string) => (errors[path] ??= []).push(message)
      const rolls = new Set<number>()
      const seen = new Set<number>()
      const userIds = learners.map((entry, index) => {
        const at = `learners.${index}`
        let userId: number | undefined
        if (entry.username) {
          userId = byName.get(entry.username.toLowerCase())
          if (userId === undefined) fail(`${at}.username`, sittingMessages.unknownUsername(entry.username))
        } else if (entry.phone_number) {
          userId = byPhone.get(phoneOf(entry.phone_number))
          if (userId === undefined) fail(`${at}.phone_number`, sittingMessages.unknownPhone(entry.phone_number))
        } else fail(at, sittingMessages.learnerMissing)
        if (userId !== undefined) {
          if (seen.has(userId)) fail(at, sittingMessages.repeatedLearner)
          seen.add(userId)
        }
        if (entry.roll_number !== undefined) {
          if (rolls.has(entry.roll_number)) fail(`${at}.roll_number`, sittingMessages.repeatedRoll(entry.roll_number))
          rolls.add(entry.roll_number)
        }
        if (entry.set !== undefined && !letters.includes(entry.set))
          fail(`${at}.set`, sittingMessages.setNotPrinted(entry.set, letters))
        return userId
      })
      const problems = Object.values(errors)
      if (problems.length > 0) throw new ValidationFailed(errors, problems[0]![0])
      let next = 1
      const entries = learners.map((entry, index) => {
        let rollNumber = entry.roll_number
        if (rollNumber === undefined) {
          while (rolls.has(next)) next++
          rollNumber = next
          rolls.add(next)
        }
        return { userId: userIds[index]!, rollNumber, set: entry.set ?? letters[index % letters.length]! }
      })
      await checkRecordedPlaces(trx, sittingId, entries)
      await replaceRoster(trx, sittingId, entries)
      await recordAudit(trx, actor, now, {
        action: 'update',
        entityType: 'sitting',
        entityId: sittingId,
        label: sitting.title_en,
        after: {
          roster: entries.map((entry) => ({ user_id: entry.userId, roll_number: entry.rollNumber, set: entry.set })),
        },
      })
    })
    return getRoster(sittingId)
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
    const hasWritten = sitting.plans[0]!.options.some((ids) => ids.length === 0)
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

  /**
   * A booklet page (API.md "On paper"): `{roll}.svg?page=N` a roster learner's, `blank.svg?serial=S&page=N` a blank
   * booklet's (a roll grid on each page: decision 075), `extra.svg?serial=S` a spare page (a roll grid, no number).
   */
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

  return {
    createSitting,
    listQuizSittings,
    getSitting,
    updateSittingDetails,
    removeSitting,
    booklet,
    getRoster,
    putRoster,
    sheetSvg,
    sheetLayout,
    bookletSvg,
    bookletLayout,
  }
}

export type SittingsService = ReturnType<typeof createSittingsService>

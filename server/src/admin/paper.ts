import {
  adminLimits,
  bankMessages,
  passageMessages,
  fromHundredths,
  toHundredths,
  type AdminPaper,
  type DrawMode,
  type DrawnQuestion,
  type SectionInput,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { ValidationFailed, type FieldErrors } from '../http/errors'
import { parseStoredMaths, richText } from '../maths/rich-text'
import { drawQuestions } from '../questions/draw-questions'
import { drawOfItem, fillDraws, type DrawFilter } from '../questions/draws'
import { matchingQuestionIds } from '../questions/draws.repository'
import { listItems, listSections } from '../questions/quiz-papers.repository'
import { findPassages, questionIdsOf } from '../questions/passages.repository'
import { canMake, wholePassages } from '../questions/passage-draws'
import {
  type PaperItemValues,
  findLiveQuestionIds,
  freezeDraw,
  listQuestionsWithCurrentText,
  replacePaper,
} from './paper.repository'

type Item = SectionInput['items'][number]

const pathOf = (section: number, item: number) => `sections.${section}.items.${item}`

const drawFilterOf = (draw: Extract<Item, { draw: unknown }>['draw']): DrawFilter => ({
  topic: draw.topic ?? null,
  tags: [...new Set((draw.tags ?? []).map((tag) => tag))],
  difficulty: draw.difficulty ?? null,
  source: draw.source ?? null,
  type: draw.type ?? null,
  count: draw.count,
  passages: draw.passages,
})

// Every refusal of API.md at once (ValidationFailed); returns the timed sections' total minutes, null when untimed.
export async function checkPaper(db: Kysely<DB>, sections: readonly SectionInput[]): Promise<number | null> {
  const errors: FieldErrors = {}
  const add = (path: string, message: string) => (errors[path] ??= []).push(message)
  const fixed = new Map<number, string>()
  const draws: { path: string; filter: DrawFilter }[] = []
  const passages = await passageQuestionsOf(db, sections)
  let total = 0
  sections.forEach((section, s) =>
    section.items.forEach((item, i) => {
      if ('question_id' in item) {
        total++
        if (fixed.has(item.question_id)) add(`${pathOf(s, i)}.question_id`, bankMessages.duplicateQuestion)
        else fixed.set(item.question_id, `${pathOf(s, i)}.question_id`)
      } else if ('passage_id' in item) {
        const path = `${pathOf(s, i)}.passage_id`
        const ids = passages.get(item.passage_id)
        if (ids === undefined) return add(path, passageMessages.notFound)
        if (ids.length === 0) return add(path, passageMessages.empty)
        total += ids.length
        if (ids.some((id) => fixed.has(id))) add(path, passageMessages.inPaperAlready)
        for (const id of ids) fixed.set(id, path)
      } else {
        total += item.draw.count
        draws.push({ path: `${pathOf(s, i)}.draw`, filter: drawFilterOf(item.draw) })
      }
    }),
  )
  if (total > adminLimits.maxQuestions) add('sections', bankMessages.paperTooLarge)
  if (total === 0) add('sections', bankMessages.paperEmpty)
  const timed = sections.filter((section) => section.time_limit_minutes !== null)
  if (timed.length > 0 && timed.length < sections.length) add('sections', bankMessages.mixedTimes)

  if (fixed.size > 0) {
    const live = await findLiveQuestionIds(db, [...fixed.keys()])
    for (const [id, path] of fixed) if (!live.has(id)) add(path, bankMessages.unknownQuestion)
  }

  // Each draw's pool less the paper's fixed questions; alone, then together (Hall's condition).
  // A draw of whole passages: its count must be a sum of whole passages' sizes (docs/decisions/117).
  for (const draw of draws.filter(({ filter }) => filter.passages)) {
    const wholes = await wholePassages(db, await matchingQuestionIds(db, draw.filter), new Set(fixed.keys()))
    const sizes = wholes.map((passage) => passage.questionIds.length)
    if (!canMake(sizes, draw.filter.count))
      add(`${draw.path}.count`, passageMessages.unreachable(draw.filter.count, sizes))
  }
  const lone = draws.filter(({ filter }) => !filter.passages)
  const pools: number[][] = []
  for (const draw of lone) {
    const pool = (await matchingQuestionIds(db, draw.filter)).filter((id) => !fixed.has(id))
    pools.push(pool)
    if (pool.length < draw.filter.count) add(`${draw.path}.count`, bankMessages.poolTooSmall(pool.length))
  }
  if (Object.keys(errors).length === 0 && lone.length > 1) {
    const draws = lone
    const fill = fillDraws(draws.map((draw, index) => ({ count: draw.filter.count, pool: pools[index]! })))
    if (!fill.ok)
      for (const index of fill.deficient) add(draws[index]!.path, bankMessages.draws(fill.needed, fill.available))
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)
  return timed.length > 0 ? timed.reduce((sum, section) => sum + section.time_limit_minutes!, 0) : null
}

const noDraw = {
  draw_topic: null,
  draw_tags: null,
  draw_difficulty: null,
  draw_source: null,
  draw_type: null,
  draw_count: null,
  draw_passages: 0,
}

// A passage item is its questions' rows in its order, each naming it: the paper keeps what was set (decision 117).
export async function writePaper(db: Kysely<DB>, quizId: number, sections: readonly SectionInput[]) {
  const passages = await passageQuestionsOf(db, sections)
  await replacePaper(
    db,
    quizId,
    sections.map((section) => ({
      section: {
        title_en: section.title.en,
        title_ne: section.title.ne,
        marks_correct: toHundredths(section.marks_correct),
        marks_wrong: toHundredths(section.marks_wrong),
        time_limit_minutes: section.time_limit_minutes,
        multiple_scheme: section.multiple.scheme,
        partial_marks: toHundredths(section.multiple.partial_marks),
        numeric_negative: section.numeric_negative ? 1 : 0,
      },
      items: section.items.flatMap((item): PaperItemValues[] => {
        if ('passage_id' in item)
          return (passages.get(item.passage_id) ?? []).map((questionId) => ({
            ...noDraw,
            question_id: questionId,
            passage_id: item.passage_id,
          }))
        const draw = 'draw' in item ? drawFilterOf(item.draw) : null
        return [
          {
            question_id: 'question_id' in item ? item.question_id : null,
            draw_topic: draw?.topic ?? null,
            draw_tags: draw && draw.tags.length > 0 ? JSON.stringify(draw.tags) : null,
            draw_difficulty: draw?.difficulty ?? null,
            draw_source: draw?.source ?? null,
            draw_type: draw?.type ?? null,
            draw_count: draw?.count ?? null,
            draw_passages: draw?.passages ? 1 : 0,
            // Every row names the same columns: a multi-row insert leaves an absent one NULL on SQLite.
            passage_id: null,
          },
        ]
      }),
    })),
  )
}

export async function readPaper(
  db: Kysely<DB>,
  quizId: number,
  drawMode: string,
  frozenDraw: string | null,
): Promise<AdminPaper> {
  const [sections, items] = await Promise.all([listSections(db, quizId), listItems(db, quizId)])
  const frozen = frozenDraw ? (JSON.parse(frozenDraw) as Record<string, number[]>) : {}
  const drawnQuestions = await findDrawnQuestions(db, Object.values(frozen).flat())
  const fixed = new Set(items.flatMap((item) => (item.question_id === null ? [] : [item.question_id])))
  const warnings: AdminPaper['warnings'] = []
  const draws: { path: string; count: number; pool: number[] }[] = []
  const result: AdminPaper['sections'] = []
  for (const [s, section] of sections.entries()) {
    const mine = items.filter((item) => item.section_id === section.id)
    const out: AdminPaper['sections'][number]['items'] = []
    for (const [i, item] of mine.entries()) {
      if (item.question_id !== null && item.passage_id !== null) {
        const last = out.at(-1)
        if (last && 'passage_id' in last && last.passage_id === item.passage_id)
          last.question_ids.push(item.question_id)
        else out.push({ passage_id: item.passage_id, question_ids: [item.question_id] })
        continue
      }
      if (item.question_id !== null) {
        out.push({ question_id: item.question_id })
        continue
      }
      const draw = drawOfItem(item)
      const matching = await matchingQuestionIds(db, draw)
      const pool = draw.passages
        ? (await wholePassages(db, matching, new Set())).flatMap((passage) => passage.questionIds)
        : matching
      out.push({
        draw: {
          topic: draw.topic,
          tags: draw.tags,
          difficulty: draw.difficulty as never,
          source: draw.source,
          type: draw.type,
          count: draw.count,
          passages: draw.passages,
        },
        pool: pool.length,
        drawn: (frozen[item.id] ?? []).flatMap((id) => {
          const question = drawnQuestions.get(id)
          return question ? [{ id: question.id, text: question.text, topic: question.topic }] : []
        }),
      })
      if ((frozen[item.id] ?? []).some((id) => drawnQuestions.get(id)?.deleted !== false))
        warnings.push({ path: `${pathOf(s, i)}.draw`, message: bankMessages.frozenQuestionDeleted })
      const available = pool.filter((id) => !fixed.has(id))
      if (!draw.passages) draws.push({ path: `${pathOf(s, i)}.draw`, count: draw.count, pool: available })
      if (available.length < draw.count)
        warnings.push({
          path: `${pathOf(s, i)}.draw`,
          message: bankMessages.drawPoolShrunk(available.length, draw.count),
        })
    }
    result.push({
      id: section.id,
      title: { en: section.title_en, ne: section.title_ne },
      marks_correct: fromHundredths(section.marks_correct),
      marks_wrong: fromHundredths(section.marks_wrong),
      time_limit_minutes: section.time_limit_minutes,
      multiple: { scheme: section.multiple_scheme, partial_marks: fromHundredths(section.partial_marks) },
      numeric_negative: section.numeric_negative === 1,
      items: out,
    })
  }
  if (warnings.length === 0 && draws.length > 1) {
    const fill = fillDraws(draws)
    if (!fill.ok)
      for (const index of fill.deficient)
        warnings.push({ path: draws[index]!.path, message: bankMessages.draws(fill.needed, fill.available) })
  }
  return { draw_mode: drawMode as DrawMode, sections: result, warnings }
}

/** Each passage item's live questions in its order; a passage not in the bank (or another institute's) is absent. */
async function passageQuestionsOf(db: Kysely<DB>, sections: readonly SectionInput[]) {
  const ids = sections.flatMap((section) =>
    section.items.flatMap((item) => ('passage_id' in item ? [item.passage_id] : [])),
  )
  if (ids.length === 0) return new Map<number, number[]>()
  const found = new Set((await findPassages(db, ids)).map((row) => row.id))
  const members = await questionIdsOf(db, [...found])
  return new Map([...members].filter(([id]) => found.has(id)))
}

async function findDrawnQuestions(db: Kysely<DB>, ids: readonly number[]) {
  const found = new Map<number, DrawnQuestion & { deleted: boolean }>()
  for (const row of await listQuestionsWithCurrentText(db, ids))
    found.set(row.id, {
      id: row.id,
      text: richText({ en: row.text_en, ne: row.text_ne }, parseStoredMaths(row.maths).text, 'admin'),
      topic: row.topic,
      deleted: row.deleted_at !== null,
    })
  return found
}

// With no learner to favour, the draw is unseen-first for nobody: at random.
export async function drawFrozenPaper(db: Kysely<DB>, quizId: number) {
  const items = await listItems(db, quizId)
  const fixed = new Set(items.flatMap((item) => (item.question_id === null ? [] : [item.question_id])))
  const draws = items.flatMap((item) =>
    item.question_id === null ? [{ itemId: item.id, draw: drawOfItem(item) }] : [],
  )
  const picks = await drawQuestions(db, null, draws, fixed)
  await freezeDraw(db, quizId, picks)
}

export async function timedMinutes(db: Kysely<DB>, quizId: number): Promise<number | null> {
  const sections = await listSections(db, quizId)
  if (sections.length === 0 || sections.some((section) => section.time_limit_minutes === null)) return null
  return sections.reduce((sum, section) => sum + section.time_limit_minutes!, 0)
}

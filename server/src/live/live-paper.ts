import { createCipheriv, randomBytes } from 'node:crypto'
import {
  bankMessages,
  LIVE_PAPER_AHEAD_MS,
  liveMessages,
  messages,
  PICTURE_URL_PATTERN,
  type LivePaper,
  type LivePaperContent,
  type QuizImage,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { passagesOnce } from '../questions/paper-passages'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { Conflict, NotFound, PermissionDenied } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import { hasPaidAccess } from '../accounts/paid-access.repository'
import { paidAccessRequired } from '../accounts/paid-access'
import type { CurrentQuestions } from '../attempts/attempts.service'
import type { PaperKeys } from '../attempts/paper-keys.service'
import { liveTimes } from '../attempts/live-window.service'
import { drawQuestions } from '../questions/draw-questions'
import { currentRevisions, freezeDraw } from '../questions/question-shows.repository'
import type { QuestionPapers } from '../questions/question-papers'
import { findLivePaperQuiz, isRegistered } from './live-paper.repository'

type LivePaperQuiz = NonNullable<Awaited<ReturnType<typeof findLivePaperQuiz>>>

const notRegistered = () => new PermissionDenied(liveMessages.notRegistered, 'not_registered')
const notOffered = () => new PermissionDenied(liveMessages.paperNotOffered, 'paper_not_offered')

/** `GET .../live-paper/` (docs/decisions/069): encrypted once per process per paper; the key comes with the start. */
export function createLivePapers({
  database,
  clock,
  papers,
  currentQuestions,
  paperKeys,
  readPicture,
}: Pick<AppContext, 'database' | 'clock'> & {
  papers: QuestionPapers
  currentQuestions: CurrentQuestions
  paperKeys: PaperKeys
  readPicture: (hash: string) => Promise<Buffer | undefined>
}) {
  const { db } = database
  const encrypted = new Map<number, { revisions: string; payload: Promise<LivePaper> }>()

  /** The paper every ranked start of the mock takes, in its authored order; draws frozen now if no start has. */
  async function frozenRevisionIds(quiz: LivePaperQuiz): Promise<number[]> {
    const fixed = await currentQuestions.currentPaper(db, quiz.id, quiz.question_set_version)
    if (!fixed.hasDraws) return fixed.revisionIds
    const draws = fixed.sections.flatMap((section) => section.slots.flatMap((slot) => ('draw' in slot ? [slot] : [])))
    const draw =
      quiz.frozen_draw ??
      (await freezeDraw(
        db,
        quiz.id,
        JSON.stringify(Object.fromEntries(await drawQuestions(db, null, draws, new Set(fixed.questionIds)))),
      ))
    const picks = new Map(Object.entries(JSON.parse(draw) as Record<string, number[]>).map(([k, v]) => [Number(k), v]))
    const drawnIds = [...picks.values()].flat()
    const revisionOf = await currentRevisions(db, drawnIds)
    if (
      drawnIds.some((id) => !revisionOf.has(id)) ||
      draws.some((slot) => (picks.get(slot.itemId)?.length ?? 0) < slot.draw.count)
    )
      throw new Conflict(bankMessages.paperUnavailable, 'paper_unavailable')
    return fixed.sections.flatMap((section) =>
      section.slots.flatMap((slot) =>
        'revisionId' in slot ? [slot.revisionId] : picks.get(slot.itemId)!.map((id) => revisionOf.get(id)!),
      ),
    )
  }

  async function inlined(image: QuizImage): Promise<QuizImage> {
    const hash = image?.picture ? PICTURE_URL_PATTERN.exec(image.picture.url)?.[1] : undefined
    if (!image?.picture || !hash) return image
    const data = await readPicture(hash)
    if (!data) return image
    return { ...image, picture: { ...image.picture, url: `data:image/webp;base64,${data.toString('base64')}` } }
  }

  async function encrypt(db: Kysely<DB>, quizId: number, revisionIds: number[]): Promise<LivePaper> {
    const paper = await papers.paperFor(db, JSON.stringify(revisionIds))
    const questions = []
    for (const { learner } of paper.questions) {
      const options = await Promise.all(
        learner.options.map(async (option) => ({ ...option, image: await inlined(option.image) })),
      )
      questions.push({ ...learner, image: await inlined(learner.image), options })
    }
    const once = passagesOnce(questions)
    const passages = await Promise.all(
      once.passages.map(async (passage) => ({ ...passage, image: await inlined(passage.image) })),
    )
    const content: LivePaperContent = { quiz_id: quizId, passages, questions: once.questions }
    const key = await paperKeys.keyOf(db, quizId, revisionIds)
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', key, iv)
    const data = Buffer.concat([cipher.update(JSON.stringify(content), 'utf8'), cipher.final(), cipher.getAuthTag()])
    return { quiz_id: quizId, cipher: 'A256GCM', iv: iv.toString('base64url'), data: data.toString('base64url') }
  }

  async function livePaper(user: TokenUser, quizId: number): Promise<LivePaper> {
    const now = clock.now()
    const quiz = await findLivePaperQuiz(db, quizId)
    if (!quiz) throw new NotFound(messages.quizNotActive)
    const times = liveTimes(quiz)
    if (!times) throw new NotFound(liveMessages.notLive)
    if (quiz.is_paid_tier === 1 && !(await hasPaidAccess(db, user.id, now))) throw paidAccessRequired()
    if (!(await isRegistered(db, quiz.id, user.id))) throw notRegistered()
    if (now < times.startsAt - LIVE_PAPER_AHEAD_MS) throw notOffered()
    const revisionIds = await frozenRevisionIds(quiz)
    const revisions = JSON.stringify(revisionIds)
    const kept = encrypted.get(quiz.id)
    if (kept?.revisions === revisions) return kept.payload
    const entry = { revisions, payload: encrypt(db, quiz.id, revisionIds) }
    encrypted.set(quiz.id, entry)
    entry.payload.catch(() => encrypted.get(quiz.id) === entry && encrypted.delete(quiz.id))
    return entry.payload
  }

  return { livePaper }
}

export type LivePapers = ReturnType<typeof createLivePapers>

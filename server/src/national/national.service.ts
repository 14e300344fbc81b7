import { createHmac } from 'node:crypto'
import {
  liveLimits,
  liveMessages,
  nationalMessages,
  type AdminNationalMock,
  type Leaderboard,
  type NationalMock,
  type NationalMockCreate,
  type PlatformNationalMock,
  type SectionInput,
} from '@quiz/contracts'
import { recordPlatformAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { inInstituteScope } from '../db/institute-jobs'
import { Conflict, NotFound, ValidationFailed } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import { toScore } from '../questions/scoring'
import { createNationalCopy, existingPlatformQuestions, removeNationalCopy } from '../admin/national-copy.service'
import type { LiveService } from '../live/live.service'
import { countNationalEntries, nationalStanding, nationalTop } from '../outcomes/outcomes.service'
import * as repo from './national.repository'

// API.md "Institutes", National mocks; docs/decisions/102.

type CreateInput = Omit<NationalMockCreate, 'sections'> & { sections: SectionInput[] }

const mockNotFound = () => new NotFound('National mock not found.')
const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

export function createNationalService(
  context: Pick<AppContext, 'database' | 'clock' | 'config'> & { live: LiveService },
) {
  const { database, clock, config, live } = context
  const { db } = database

  const endsAt = (mock: repo.NationalMockRow) => mock.live_starts_at + mock.duration_minutes * 60_000
  const sectionsOf = (mock: repo.NationalMockRow) => JSON.parse(mock.sections_json) as SectionInput[]
  const view = (mock: repo.NationalMockRow) => ({
    id: mock.id,
    title: JSON.parse(mock.title) as { en: string; ne: string },
    duration_minutes: mock.duration_minutes,
    live: {
      starts_at: new Date(mock.live_starts_at).toISOString(),
      join_minutes: mock.live_join_minutes,
      ends_at: new Date(endsAt(mock)).toISOString(),
    },
    question_count: sectionsOf(mock).reduce((count, section) => count + section.items.length, 0),
  })

  /** Stable per learner and mock, and not reversible without the server's secret. */
  const codeOf = (mockId: number, userId: number) =>
    [...createHmac('sha256', config.jwtSecret).update(`national-mock:${mockId}:${userId}`).digest().subarray(0, 6)]
      .map((byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length])
      .join('')

  async function requireMock(id: number) {
    const mock = await repo.findMock(db, id)
    if (!mock) throw mockNotFound()
    return mock
  }

  async function withInstitutes(mocks: repo.NationalMockRow[]): Promise<PlatformNationalMock[]> {
    const takers = await repo.listTakers(
      db,
      mocks.map((mock) => mock.id),
    )
    return mocks.map((mock) => ({
      ...view(mock),
      institutes: takers
        .filter((taker) => taker.national_mock_id === mock.id)
        .map((taker) => ({ id: taker.institute_id, slug: taker.slug, name: taker.name_en, quiz_id: taker.quiz_id })),
    }))
  }

  return {
    async create(input: CreateInput, actor: AuditActor): Promise<PlatformNationalMock> {
      const now = clock.now()
      const startsAt = Date.parse(input.live.starts_at)
      const errors: Record<string, string[]> = {}
      if (startsAt < now) errors['live.starts_at'] = [liveMessages.startsBeforeQuiz]
      if (input.live.join_minutes > input.duration_minutes) errors['live.join_minutes'] = [liveMessages.joinAfterEnd]
      const ids = input.sections.flatMap((section) =>
        section.items.flatMap((item) => ('question_id' in item ? [item.question_id] : [])),
      )
      const known = await existingPlatformQuestions(context, ids)
      input.sections.forEach((section, s) =>
        section.items.forEach((item, i) => {
          if (!('question_id' in item)) errors[`sections.${s}.items.${i}`] = [nationalMessages.drawNotAllowed.en]
          else if (!known.has(item.question_id))
            errors[`sections.${s}.items.${i}.question_id`] = [nationalMessages.unknownQuestion.en]
        }),
      )
      if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)
      // In the platform's trail with the mock (decision 097): who scheduled a paper every institute will sit.
      const id = await database.transaction(async (trx) => {
        const made = await repo.insertMock(trx, {
          title: JSON.stringify(input.title),
          duration_minutes: input.duration_minutes,
          live_starts_at: startsAt,
          live_join_minutes: input.live.join_minutes,
          sections_json: JSON.stringify(input.sections),
          created_at: now,
        })
        await recordPlatformAudit(trx, actor, now, {
          action: 'create',
          entityType: 'national_mock',
          entityId: made,
          label: input.title.en,
          after: { title: input.title, starts_at: input.live.starts_at, duration_minutes: input.duration_minutes },
        })
        return made
      })
      return (await withInstitutes([(await repo.findMock(db, id))!]))[0]!
    },

    listForPlatform: async () => ({ items: await withInstitutes(await repo.listMocks(db)) }),

    getForPlatform: async (id: number) => (await withInstitutes([await requireMock(id)]))[0]!,

    async listForAdmin(instituteId: number): Promise<{ items: AdminNationalMock[] }> {
      const taking = new Map((await repo.listTakingPart(db, instituteId)).map((t) => [t.national_mock_id, t.quiz_id]))
      const mocks = await repo.listMocks(db)
      return {
        items: mocks.map((mock) => ({
          ...view(mock),
          taking_part: taking.has(mock.id),
          quiz_id: taking.get(mock.id) ?? null,
        })),
      }
    },

    async listForLearner(instituteId: number): Promise<{ items: NationalMock[] }> {
      const taking = new Map((await repo.listTakingPart(db, instituteId)).map((t) => [t.national_mock_id, t.quiz_id]))
      const mocks = (await repo.listMocks(db)).filter((mock) => taking.has(mock.id))
      return { items: mocks.map((mock) => ({ ...view(mock), quiz_id: taking.get(mock.id)! })) }
    },

    /** Takes part: the institute's own live quiz, copied in the request's institute. `created`: false if it was. */
    async join(id: number, instituteId: number, actor: AuditActor) {
      const mock = await requireMock(id)
      const taker = await repo.findTaker(db, id, instituteId)
      const result = (quizId: number, created: boolean) => ({
        created,
        body: { ...view(mock), taking_part: true, quiz_id: quizId },
      })
      if (taker) return result(taker.quiz_id, false)
      if (clock.now() >= mock.live_starts_at) throw new Conflict(nationalMessages.started.en, 'national_mock_started')
      const quizId = await createNationalCopy(
        context,
        {
          mockId: id,
          title: JSON.parse(mock.title) as { en: string; ne: string },
          durationMinutes: mock.duration_minutes,
          live: { starts_at: new Date(mock.live_starts_at).toISOString(), join_minutes: mock.live_join_minutes },
          sections: sectionsOf(mock),
        },
        actor,
      )
      await repo.insertTaker(db, {
        national_mock_id: id,
        institute_id: instituteId,
        quiz_id: quizId,
        joined_at: clock.now(),
      })
      return result(quizId, true)
    },

    async leave(id: number, instituteId: number) {
      const mock = await requireMock(id)
      const taker = await repo.findTaker(db, id, instituteId)
      if (!taker) return
      if (clock.now() >= mock.live_starts_at) throw new Conflict(nationalMessages.started.en, 'national_mock_started')
      await removeNationalCopy(context, taker.quiz_id)
      await repo.deleteTaker(db, id, instituteId)
    },

    /** Every institute's learners ranked together, each named by institute and a code (API.md). */
    /**
     * The national board as the platform's admins see it (WEB.md "Institutes": national mocks, the national board):
     * the same top as every learner's, with no `me` (the platform sits no mock). Final once every institute's copy
     * is (docs/decisions/119).
     */
    async leaderboardForPlatform(id: number): Promise<Leaderboard> {
      const mock = await requireMock(id)
      const now = clock.now()
      if (now < mock.live_starts_at) return { status: 'upcoming', participants: 0, top: [], me: null }
      const takers = await repo.listTakers(db, [id])
      // Row security shows each institute's attempts to its own scope alone: ask each copy in its institute's.
      const states: { status: Leaderboard['status']; participants: number }[] = []
      for (const taker of takers)
        states.push(await inInstituteScope('national-board', taker.institute_id, () => live.boardState(taker.quiz_id)))
      if (now < endsAt(mock))
        return {
          status: 'running',
          participants: states.reduce((sum, state) => sum + state.participants, 0),
          top: [],
          me: null,
        }
      const rows = await nationalTop(db, id, liveLimits.leaderboardTop)
      const names = await repo.instituteNames(db, [...new Set(rows.map((row) => row.institute_id))])
      const top: Leaderboard['top'] = []
      rows.forEach((row, index) => {
        const previous = index > 0 ? rows[index - 1]! : undefined
        const rank = previous && previous.score_hundredths === row.score_hundredths ? top[index - 1]!.rank : index + 1
        top.push({
          rank,
          name: `${names.get(row.institute_id) ?? ''} · ${codeOf(id, row.user_id)}`,
          score: toScore(row.score_hundredths),
        })
      })
      const final = states.length > 0 && states.every((state) => state.status === 'final')
      return {
        status: final ? 'final' : 'provisional',
        participants: await countNationalEntries(db, id),
        top,
        me: null,
      }
    },

    async leaderboard(user: TokenUser, id: number, instituteId: number): Promise<Leaderboard> {
      const mock = await requireMock(id)
      const own = await repo.findTaker(db, id, instituteId)
      if (!own) throw mockNotFound()
      const now = clock.now()
      if (now < endsAt(mock)) {
        // Row security shows each institute's attempts to its own scope alone: count them there, one by one.
        let participants = 0
        for (const taker of await repo.listTakers(db, [id]))
          participants += await inInstituteScope(
            'national-board',
            taker.institute_id,
            async () => (await live.leaderboard(user, taker.quiz_id)).participants,
          )
        return { status: now < mock.live_starts_at ? 'upcoming' : 'running', participants, top: [], me: null }
      }
      const { status } = await live.leaderboard(user, own.quiz_id)
      const rows = await nationalTop(db, id, liveLimits.leaderboardTop)
      const names = await repo.instituteNames(db, [...new Set(rows.map((row) => row.institute_id))])
      const top: Leaderboard['top'] = []
      rows.forEach((row, index) => {
        const previous = index > 0 ? rows[index - 1]! : undefined
        const rank = previous && previous.score_hundredths === row.score_hundredths ? top[index - 1]!.rank : index + 1
        const name = `${names.get(row.institute_id) ?? ''} · ${codeOf(id, row.user_id)}`
        top.push({ rank, name, score: toScore(row.score_hundredths) })
      })
      const standing = await nationalStanding(db, id, instituteId, user.id)
      const others = standing ? standing.participants - 1 : 0
      return {
        status,
        participants: await countNationalEntries(db, id),
        top,
        me: standing && {
          rank: standing.above + 1,
          percentile: others <= 0 ? 100 : Math.round((standing.below * 10_000) / others) / 100,
          score: toScore(standing.score),
        },
      }
    },
  }
}

export type NationalService = ReturnType<typeof createNationalService>

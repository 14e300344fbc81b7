import { unzipSync } from 'fflate'
import type { HTTPMethods } from 'fastify'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { inRequestScope } from '../src/db/request-scope'
import { instituteOwnedTables } from '../src/db/tenancy'
import { createInstitutesService } from '../src/institutes/institutes.service'
import { pageUrlKey, pageUrls } from '../src/written/answer-pages'
import { multipart } from './auth-requests'
import { dialects } from './dialects'
import { createUser, type TestUser } from './factories'
import { questionBody } from './fixtures/admin.fixtures'
import { dataUrl, png } from './fixtures/pictures'
import { openQuiz, requestsAs, storedOptionIds } from './learner-api'
import { openLiveMock } from './live-mock'
import { addPage } from './marking'
import type { Services } from '../src/services'
import { useTestApp, type TestApp } from './test-app'
import { writtenPaper } from './written-papers'

// API.md "Institutes: many on one deployment", Isolation (issue 74, docs/decisions/100): institute B is filled
// through every feature, then A's admin and A's learner walk every GET route on A's host (and write to B's ids) and
// find nothing of B: no title, username, tag, picture or count of it, B's ids 404, and B's rows as they were.
// B is the first institute (`main`) on the host the shared test helpers call (`localhost`), so they fill it as
// they are; A is a second institute on its own host, its tokens naming it.

const A_HOST = 'alpha.example.np'
const HELD_AT = '2026-11-28T04:15:00.000Z'

type Role = 'admin' | 'learner'
/** What the walk needs of B: ids by kind, filled in as B is made. */
type BIds = Record<string, number | string>

/**
 * How each GET route is walked: who asks, and the urls asked (B's ids in them must 404). A route of the app not in
 * this table nor in `exempt` fails the test, so a new route family cannot go unwalked.
 */
const walks: Record<
  string,
  { as: Role[]; urls: (b: BIds, a: BIds) => { url: string; bId?: boolean; refused?: boolean }[] }
> = {
  '/api/admin/institute/settings': { as: ['admin'], urls: () => [{ url: '/api/admin/institute/settings/' }] },
  // The platform's, on its own address to platform admins alone: refused to A's admin on A's host.
  '/api/platform/institutes/': { as: ['admin'], urls: () => [{ url: '/api/platform/institutes/', refused: true }] },
  '/api/platform/institutes/{id}/': {
    as: ['admin'],
    urls: () => [{ url: '/api/platform/institutes/1/', refused: true }],
  },
  '/api/platform/audit/': { as: ['admin'], urls: () => [{ url: '/api/platform/audit/', refused: true }] },
  // National mocks (docs/decisions/102): the platform's refused on A's host; A sees only those A takes part in.
  '/api/platform/national-mocks': {
    as: ['admin'],
    urls: () => [{ url: '/api/platform/national-mocks/', refused: true }],
  },
  '/api/platform/national-mocks/{id}/leaderboard/': {
    as: ['admin'],
    urls: () => [{ url: '/api/platform/national-mocks/1/leaderboard/', refused: true }],
  },
  '/api/platform/national-mocks/{id}/': {
    as: ['admin'],
    urls: () => [{ url: '/api/platform/national-mocks/1/', refused: true }],
  },
  '/api/admin/national-mocks': { as: ['admin'], urls: () => [{ url: '/api/admin/national-mocks/' }] },
  '/api/national-mocks': { as: ['learner', 'admin'], urls: () => [{ url: '/api/national-mocks/' }] },
  '/api/national-mocks/{id}/leaderboard/': {
    as: ['learner'],
    urls: () => [{ url: '/api/national-mocks/1/leaderboard/', bId: true }],
  },
  // The platform's bank (docs/decisions/101): its own routes refused on A's host; A's admin reads it, never B's bank.
  '/api/platform/bank/questions/': {
    as: ['admin'],
    urls: () => [{ url: '/api/platform/bank/questions/', refused: true }],
  },
  '/api/platform/bank/facets/': { as: ['admin'], urls: () => [{ url: '/api/platform/bank/facets/', refused: true }] },
  '/api/platform/bank/questions/{id}/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/platform/bank/questions/${b.bankQuestion}/`, refused: true }],
  },
  '/api/admin/platform-bank/questions/': {
    as: ['admin'],
    urls: () => [
      { url: '/api/admin/platform-bank/questions/' },
      { url: '/api/admin/platform-bank/questions/?search=BRAVO' },
    ],
  },
  '/api/admin/platform-bank/questions/{id}/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/platform-bank/questions/${b.bankQuestion}/`, bId: true }],
  },
  '/api/institute': { as: ['learner'], urls: () => [{ url: '/api/institute/' }] },
  // Memberships (decision 096): an institute's members, and the caller's own institutes.
  '/api/admin/users/': { as: ['admin'], urls: () => [{ url: '/api/admin/users/' }] },
  '/api/admin/members': { as: ['admin'], urls: () => [{ url: '/api/admin/members/' }] },
  '/api/users/memberships/': { as: ['learner', 'admin'], urls: () => [{ url: '/api/users/memberships/' }] },
  '/api/auth/sessions/': { as: ['learner', 'admin'], urls: () => [{ url: '/api/auth/sessions/' }] },
  '/api/pictures/{file}': {
    as: ['learner'],
    urls: (b, a) => [{ url: `/api/pictures/${b.picture}.webp`, bId: true }, { url: `/api/pictures/${a.picture}.webp` }],
  },
  '/api/quizzes': { as: ['learner', 'admin'], urls: () => [{ url: '/api/quizzes/' }] },
  '/api/quizzes/{id}/': {
    as: ['learner'],
    urls: (b) => [b.quiz, b.live, b.written].map((id) => ({ url: `/api/quizzes/${id}/`, bId: true })),
  },
  '/api/quizzes/{id}/question/{n}/': {
    as: ['learner'],
    urls: (b) => [{ url: `/api/quizzes/${b.quiz}/question/1/`, bId: true }],
  },
  '/api/quizzes/{id}/leaderboard/': {
    as: ['learner'],
    urls: (b) => [
      { url: `/api/quizzes/${b.quiz}/leaderboard/`, bId: true },
      { url: `/api/quizzes/${b.live}/leaderboard/`, bId: true },
    ],
  },
  '/api/quizzes/{id}/live-paper/': {
    as: ['learner'],
    urls: (b) => [{ url: `/api/quizzes/${b.live}/live-paper/`, bId: true }],
  },
  '/api/results': { as: ['learner'], urls: () => [{ url: '/api/results/' }] },
  '/api/results/progress/': { as: ['learner'], urls: () => [{ url: '/api/results/progress/' }] },
  '/api/results/{attemptId}/': {
    as: ['learner'],
    urls: (b, a) => [{ url: `/api/results/${b.attempt}/`, bId: true }, { url: `/api/results/${a.attempt}/` }],
  },
  '/api/results/{attemptId}/written/{questionId}/': {
    as: ['learner'],
    urls: (b) => [{ url: `/api/results/${b.writtenAttempt}/written/${b.writtenQuestion}/`, bId: true }],
  },
  '/api/results/{attemptId}/sheet': {
    as: ['learner'],
    urls: (b) => [{ url: `/api/results/${b.attempt}/sheet`, bId: true }],
  },
  '/api/practice': { as: ['learner'], urls: () => [{ url: '/api/practice/' }] },
  // The daily set (docs/decisions/110): A's day, settings and days alone; a day of B's is no day of A's.
  '/api/daily': { as: ['learner'], urls: () => [{ url: '/api/daily/' }] },
  '/api/daily/{date}/leaderboard/': {
    as: ['learner'],
    urls: () => [{ url: '/api/daily/2026-11-22/leaderboard/', bId: true }],
  },
  '/api/admin/daily-set': { as: ['admin'], urls: () => [{ url: '/api/admin/daily-set/' }] },
  '/api/admin/daily-set/days/': {
    as: ['admin'],
    urls: () => [{ url: '/api/admin/daily-set/days/?from=2026-11-20&to=2026-11-23' }],
  },
  '/api/admin/quizzes/': {
    as: ['admin'],
    urls: () => [{ url: '/api/admin/quizzes/' }, { url: '/api/admin/quizzes/?search=BRAVO' }],
  },
  '/api/admin/quizzes/{id}/': {
    as: ['admin'],
    urls: (b) => [b.quiz, b.live, b.written].map((id) => ({ url: `/api/admin/quizzes/${id}/`, bId: true })),
  },
  '/api/admin/quizzes/{id}/marking/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/quizzes/${b.written}/marking/`, bId: true }],
  },
  '/api/admin/quizzes/{id}/attempts/': {
    as: ['admin'],
    urls: (b, a) => [
      { url: `/api/admin/quizzes/${b.quiz}/attempts/`, bId: true },
      { url: `/api/admin/quizzes/${a.quiz}/attempts/` },
    ],
  },
  '/api/admin/quizzes/{id}/attempts.csv': {
    as: ['admin'],
    urls: (b, a) => [
      { url: `/api/admin/quizzes/${b.quiz}/attempts.csv`, bId: true },
      { url: `/api/admin/quizzes/${a.quiz}/attempts.csv` },
    ],
  },
  '/api/admin/quizzes/{id}/statistics/': {
    as: ['admin'],
    urls: (b, a) => [
      { url: `/api/admin/quizzes/${b.quiz}/statistics/`, bId: true },
      { url: `/api/admin/quizzes/${a.quiz}/statistics/` },
    ],
  },
  '/api/admin/quizzes/{id}/sittings/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/quizzes/${b.written}/sittings/`, bId: true }],
  },
  '/api/admin/bank/questions/': {
    as: ['admin'],
    urls: () => [
      { url: '/api/admin/bank/questions/' },
      { url: '/api/admin/bank/questions/?search=BRAVO' },
      { url: '/api/admin/bank/questions/?tag=BravoTag' },
    ],
  },
  '/api/admin/bank/facets/': { as: ['admin'], urls: () => [{ url: '/api/admin/bank/facets/' }] },
  // Registered as the prefix itself: the document names it without its slash.
  '/api/admin/bank/passages': {
    as: ['admin'],
    urls: () => [{ url: '/api/admin/bank/passages/' }, { url: '/api/admin/bank/passages/?search=BRAVO' }],
  },
  '/api/admin/bank/passages/{id}/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/bank/passages/${b.passage}/`, bId: true }],
  },
  // Only counts: the walk below also asks it for B's topic and expects no passage at all.
  '/api/admin/bank/passages/pool/': {
    as: ['admin'],
    urls: () => [{ url: '/api/admin/bank/passages/pool/?topic=BravoTopic' }],
  },
  '/api/admin/bank/questions/{id}/': {
    as: ['admin'],
    urls: (b) =>
      [b.bankQuestion, b.writtenQuestion].map((id) => ({ url: `/api/admin/bank/questions/${id}/`, bId: true })),
  },
  '/api/admin/bank/questions/{id}/rubric/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/bank/questions/${b.writtenQuestion}/rubric/`, bId: true }],
  },
  '/api/admin/bank/questions/{id}/rubric/stats/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/bank/questions/${b.writtenQuestion}/rubric/stats/`, bId: true }],
  },
  '/api/admin/bank/export.xlsx': { as: ['admin'], urls: () => [{ url: '/api/admin/bank/export.xlsx' }] },
  '/api/admin/imports/template.xlsx': { as: ['admin'], urls: () => [{ url: '/api/admin/imports/template.xlsx' }] },
  '/api/admin/imports/template.csv': { as: ['admin'], urls: () => [{ url: '/api/admin/imports/template.csv' }] },
  '/api/admin/marking/': { as: ['admin'], urls: () => [{ url: '/api/admin/marking/' }] },
  '/api/admin/written-answers/{id}/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/written-answers/${b.writtenAnswer}/`, bId: true }],
  },
  '/api/admin/regrades/': { as: ['admin'], urls: () => [{ url: '/api/admin/regrades/' }] },
  '/api/users/profile/': { as: ['learner', 'admin'], urls: () => [{ url: '/api/users/profile/' }] },
  '/api/admin/sittings/{id}/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/sittings/${b.sitting}/`, bId: true }],
  },
  '/api/admin/sittings/{id}/scans/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/sittings/${b.sitting}/scans/`, bId: true }],
  },
  '/api/admin/sittings/{id}/pages/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/sittings/${b.sitting}/pages/`, bId: true }],
  },
  '/api/admin/sittings/{id}/paper/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/sittings/${b.sitting}/paper/?set=A`, bId: true }],
  },
  '/api/admin/sittings/{id}/roster/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/sittings/${b.sitting}/roster/`, bId: true }],
  },
  '/api/admin/sittings/{id}/sheets/{sheet}': {
    as: ['admin'],
    urls: (b) => [
      { url: `/api/admin/sittings/${b.sitting}/sheets/1.svg`, bId: true },
      { url: `/api/admin/sittings/${b.sitting}/sheets/blank.svg?serial=1`, bId: true },
    ],
  },
  '/api/admin/sittings/{id}/sheet-layout/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/sittings/${b.sitting}/sheet-layout/`, bId: true }],
  },
  '/api/admin/sittings/{id}/booklets/{booklet}': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/sittings/${b.sitting}/booklets/1.svg`, bId: true }],
  },
  '/api/admin/sittings/{id}/booklet-layout/': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/sittings/${b.sitting}/booklet-layout/`, bId: true }],
  },
  '/api/admin/pages/{id}/': { as: ['admin'], urls: (b) => [{ url: `/api/admin/pages/${b.page}/`, bId: true }] },
  '/api/admin/pages/{id}/image': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/pages/${b.page}/image`, bId: true }],
  },
  '/api/admin/scans/{id}/': { as: ['admin'], urls: (b) => [{ url: `/api/admin/scans/${b.scan}/`, bId: true }] },
  '/api/admin/scans/{id}/image': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/scans/${b.scan}/image`, bId: true }],
  },
  '/api/admin/scans/{id}/reader-view': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/scans/${b.scan}/reader-view`, bId: true }],
  },
  '/api/admin/scans/{id}/photos/{photo_id}': {
    as: ['admin'],
    urls: (b) => [{ url: `/api/admin/scans/${b.scan}/photos/${b.scanPhoto}`, bId: true }],
  },
  '/api/written-pages/{pageId}/': {
    as: ['learner'],
    urls: (b) => [
      { url: String(b.writtenPageUrl), bId: true },
      { url: `${b.writtenPageUrl}&size=phone`, bId: true },
    ],
  },
  '/api/admin/audit': { as: ['admin'], urls: () => [{ url: '/api/admin/audit/' }] },
  '/api/admin/flags/': { as: ['admin'], urls: () => [{ url: '/api/admin/flags/' }] },
  '/api/plans': { as: ['learner'], urls: () => [{ url: '/api/plans/' }] },
  '/api/admin/plans': { as: ['admin'], urls: () => [{ url: '/api/admin/plans/' }] },
  '/api/payments/providers/': { as: ['learner'], urls: () => [{ url: '/api/payments/providers/' }] },
  '/api/payments/{id}/': { as: ['learner'], urls: (b) => [{ url: `/api/payments/${b.payment}/`, bId: true }] },
  '/api/admin/payments': { as: ['admin'], urls: () => [{ url: '/api/admin/payments/' }] },
  '/api/notifications': { as: ['learner', 'admin'], urls: () => [{ url: '/api/notifications/' }] },
}

/** GET routes not walked here, each with why. */
const exempt: Record<string, string> = {
  '/api/health': "the deployment's, on any host (decision 095)",
  '/api/push/key/': "the deployment's one VAPID public key: no institute's record",
  '/api/users/profile-pictures/{id}': "the account's picture (tableOwners 'account'), the same person on every host",
  '/api/payments/khalti/return/':
    "the gateway's return, verified with and credited to the host's institute (payments helper); B's payment " +
    'rows are checked unchanged after the walk below',
  '/api/payments/esewa/return/{id}/success/': 'as the Khalti return: the payments helper',
  '/api/payments/esewa/return/{id}/failure/': 'as the Khalti return: the payments helper',
}

/** Writes by A's admin and learner to B's ids: each must 404 (or be refused) and change no row of B. */
const writes: { as: Role; method: HTTPMethods; url: (b: BIds) => string; body?: (b: BIds) => unknown }[] = [
  {
    as: 'admin',
    method: 'PATCH',
    url: (b) => `/api/admin/quizzes/${b.quiz}/`,
    body: () => ({ title: { en: 'Taken' } }),
  },
  { as: 'admin', method: 'DELETE', url: (b) => `/api/admin/quizzes/${b.live}/` },
  { as: 'admin', method: 'POST', url: (b) => `/api/admin/quizzes/${b.quiz}/unpublish/` },
  { as: 'admin', method: 'POST', url: (b) => `/api/admin/quizzes/${b.quiz}/duplicate/` },
  { as: 'admin', method: 'POST', url: (b) => `/api/admin/quizzes/${b.quiz}/freeze/` },
  {
    as: 'admin',
    method: 'PUT',
    url: (b) => `/api/admin/bank/questions/${b.bankQuestion}/`,
    body: () => questionBody(),
  },
  { as: 'admin', method: 'DELETE', url: (b) => `/api/admin/bank/questions/${b.bankQuestion}/` },
  {
    as: 'admin',
    method: 'PUT',
    url: (b) => `/api/admin/bank/questions/${b.writtenQuestion}/rubric/`,
    body: () => ({ groups: [] }),
  },
  {
    as: 'admin',
    method: 'POST',
    url: (b) => `/api/admin/questions/${b.quizQuestion}/key/`,
    body: (b) => ({ revision_id: b.quizRevision, action: 'void', note: 'x', dry_run: false }),
  },
  {
    as: 'admin',
    method: 'POST',
    url: (b) => `/api/admin/quizzes/${b.written}/marking/release/`,
    body: (b) => ({ question_ids: [b.writtenQuestion] }),
  },
  {
    as: 'admin',
    method: 'PUT',
    url: (b) => `/api/admin/written-answers/${b.writtenAnswer}/evaluation/`,
    body: () => ({ items: [], adjustment: 0, comment: null }),
  },
  { as: 'admin', method: 'PATCH', url: (b) => `/api/admin/plans/${b.plan}/`, body: () => ({ price_paisa: 100_00 }) },
  { as: 'admin', method: 'PATCH', url: (b) => `/api/admin/sittings/${b.sitting}/`, body: () => ({ status: 'closed' }) },
  {
    as: 'admin',
    method: 'PUT',
    url: (b) => `/api/admin/sittings/${b.sitting}/roster/`,
    body: () => ({ learners: [] }),
  },
  { as: 'admin', method: 'DELETE', url: (b) => `/api/admin/sittings/${b.sitting}/` },
  { as: 'admin', method: 'DELETE', url: (b) => `/api/admin/scans/${b.scan}/` },
  { as: 'admin', method: 'PATCH', url: (b) => `/api/admin/pages/${b.page}/`, body: () => ({ status: 'discarded' }) },
  { as: 'admin', method: 'POST', url: (b) => `/api/admin/imports/${b.import}/commit/`, body: () => ({}) },
  {
    as: 'learner',
    method: 'POST',
    url: (b) => `/api/quizzes/${b.quiz}/submit/`,
    body: () => ({ answers: {} }),
  },
  { as: 'learner', method: 'POST', url: (b) => `/api/quizzes/${b.live}/register/` },
  {
    as: 'learner',
    method: 'PUT',
    url: (b) => `/api/quizzes/${b.quiz}/answers/`,
    body: () => ({ answers: {} }),
  },
  {
    as: 'learner',
    method: 'POST',
    url: () => '/api/payments/',
    body: (b) => ({ plan_id: b.plan, provider: 'fake' }),
  },
]

/** Routes Fastify serves but the OpenAPI document leaves out, each with why they are not walked. */
const undocumented: Record<string, string> = {
  '/api/docs': "the API's documentation, the deployment's",
  '/api/payments/fake/checkout': "the fake gateway's page, made only for development and tests (the payments work)",
  '/api/payments/fake/return': "the fake gateway's return, as the real gateways' returns",
}

/** Every GET route of the app as Fastify holds it (its route tree printed), `:param` written `{param}`. */
function servedGetRoutes(tree: string) {
  const stack: string[] = []
  const routes = new Set<string>()
  for (const line of tree.split('\n')) {
    const at = line.indexOf('── ')
    if (at < 0) continue
    const depth = Math.round(at / 4)
    const [, segment = '', methods = ''] = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 3)) ?? []
    stack.length = depth
    stack.push(segment)
    if (methods.split(', ').includes('GET')) routes.add(stack.join('').replace(/:(\w+)/g, '{$1}'))
  }
  return routes
}

const withoutSlash = (path: string) => path.replace(/\/$/, '')

/** Every string a response could carry, JSON or text, and the text inside an xlsx (a zip). */
function textOf(body: Buffer, contentType: string | undefined) {
  if (contentType?.includes('spreadsheetml') || body.subarray(0, 2).toString() === 'PK') {
    const files = unzipSync(new Uint8Array(body))
    return Object.values(files)
      .map((file) => Buffer.from(file).toString('utf8'))
      .join('\n')
  }
  return body.toString('utf8')
}

/** Every row of B in every institute-owned table, to compare before and after A's walk. */
async function rowsOf(t: TestApp, institute: number) {
  const tables: Record<string, unknown[]> = {}
  for (const table of [...instituteOwnedTables].sort()) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}
      where institute_id = ${institute}`.execute(t.db)
    tables[table] = rows
      .map((row) => JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)))
      .sort()
  }
  return tables
}

describe.each(dialects)('institutes held apart, every route, on %s', (dialect) => {
  let services: Services | undefined
  const t = useTestApp(
    dialect,
    { BASE_DOMAIN: 'quiz.example.np' },
    {
      services: (built) => {
        services = built
        return {}
      },
    },
  )
  const call = requestsAs(t)
  /** Writes the shown questions the starts hold back (questions/show-log.ts) before B's rows are compared. */
  const flushShows = () => services!.attempts.shows.flush()

  /** A member of the institute with the role there (docs/decisions/096), and its bearer there. */
  async function memberOf(institute: { slug: string }, role: Role, username: string) {
    const { id } = await t.db
      .selectFrom('institutes')
      .select('id')
      .where('slug', '=', institute.slug)
      .executeTakeFirstOrThrow()
    const user = await createUser(t.database, { username, is_admin: role === 'admin' ? 1 : 0, institute: id })
    const access = await t.tokens.signAccess({
      id: user.id,
      username: user.username,
      is_admin: role === 'admin',
      is_marker: false,
      institute: institute.slug,
    })
    return { user, headers: { authorization: `Bearer ${access}`, host: A_HOST } }
  }

  /** B, the first institute, filled through its routes and the shared helpers; its ids by kind. */
  async function fillB() {
    await sql`insert into institute_hosts (host, institute_id) values ('localhost', 1)`.execute(t.db)
    const b: BIds = {}
    const admin = await createUser(t.database, { username: 'bravo_admin', is_admin: 1 })
    const learner = await createUser(t.database, { username: 'bravo_learner' })

    const bank = await call(admin, 'POST', '/api/admin/bank/questions/', {
      ...questionBody({ text: { en: 'BRAVO bank question', ne: '' } }),
      image: { picture: dataUrl(await png(40, 30, { colour: '#123456' })) },
      tags: ['BravoTag'],
      topic: 'BravoTopic',
      source: 'BRAVO source',
    })
    expect(bank.status, bank.raw).toBe(201)
    b.bankQuestion = bank.body.id
    b.picture = /([0-9a-f]{64})\.webp/.exec(bank.body.image.picture.url)![1]!
    const passage = await call(admin, 'POST', '/api/admin/bank/passages/', {
      text: { en: 'BRAVO passage', ne: '' },
      image: null,
    })
    expect(passage.status, passage.raw).toBe(201)
    b.passage = passage.body.id
    const members = await call(admin, 'PUT', `/api/admin/bank/passages/${b.passage}/questions/`, {
      question_ids: [b.bankQuestion],
    })
    expect(members.status, members.raw).toBe(200)

    const made = await openQuiz(t, { title_en: 'BRAVO quiz' }, { questions: [{ text: 'BRAVO question' }] })
    b.quiz = made.quiz.id
    b.quizQuestion = made.questionIds[0]!
    b.quizRevision = (await t.db
      .selectFrom('questions')
      .select('revision_id')
      .where('id', '=', made.questionIds[0]!)
      .executeTakeFirstOrThrow())!.revision_id!
    const [right] = await storedOptionIds(t.db, made.questionIds[0]!)
    const submitted = await call(learner, 'POST', `/api/quizzes/${b.quiz}/submit/`, {
      answers: { [made.questionIds[0]!]: right },
    })
    expect(submitted.status, submitted.raw).toBe(200)
    b.attempt = submitted.body.attempt_id
    const flag = await call(learner, 'POST', `/api/results/${b.attempt}/flags/`, {
      question_id: made.questionIds[0],
      reason: 'ambiguous',
      note: 'BRAVO flag note',
    })
    expect(flag.status, flag.raw).toBe(201)

    const live = await openLiveMock(t, { title_en: 'BRAVO live mock' })
    b.live = live.id
    const registered = await t.app.inject({
      method: 'POST',
      url: `/api/quizzes/${b.live}/register/`,
      headers: await bearerHeaders(learner),
    })
    expect(registered.statusCode, registered.body).toBeLessThan(300)

    const paper = await writtenPaper(t)
    await t.db.updateTable('quizzes').set({ title_en: 'BRAVO written paper' }).where('id', '=', paper.quizId).execute()
    b.written = paper.quizId
    b.writtenQuestion = paper.questionId
    const sat = await paper.sit(learner)
    b.writtenAttempt = sat.attemptId
    b.writtenAnswer = sat.answerId
    const writtenPage = await addPage(t, sat.answerId)
    b.writtenPageUrl = pageUrls(pageUrlKey(t.config.jwtSecret), writtenPage, t.clock.now()).url
    await paper.mark(sat.answerId, { comment: { en: 'BRAVO comment', ne: '' } })
    await paper.release()

    const sitting = await call(admin, 'POST', `/api/admin/quizzes/${b.written}/sittings/`, { held_at: HELD_AT })
    expect(sitting.status, sitting.raw).toBe(201)
    b.sitting = sitting.body.id
    const now = t.clock.now()
    const scan = await t.db
      .insertInto('sitting_scans')
      .values({
        sitting_id: Number(b.sitting),
        sheet: '1',
        status: 'needs_review',
        roll_number: 1,
        set_letter: 'A',
        user_id: learner.id,
        answers: '[]',
        flags: '[]',
        attempt_id: null,
        photo: Buffer.from('BRAVO scan'),
        photo_type: 'image/webp',
        scanned_by: admin.id,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    b.scan = scan.id
    const photo = await t.db
      .insertInto('scan_photos')
      .values({
        scan_id: scan.id,
        photo: Buffer.from('BRAVO old photo'),
        photo_type: 'image/webp',
        scanned_by: admin.id,
        replaced_at: now,
        replaced_by: admin.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    b.scanPhoto = photo.id
    const page = await t.db
      .insertInto('booklet_pages')
      .values({
        sitting_id: Number(b.sitting),
        sheet: '1',
        serial: 1,
        page_number: 1,
        status: 'needs_review',
        roll_number: 1,
        user_id: learner.id,
        questions: '[]',
        flags: '[]',
        question_box: '{}',
        image_hash: `${sat.answerId}-1`.padEnd(64, '0'),
        answer_hash: null,
        upload_hash: 'b'.repeat(64),
        scanned_by: admin.id,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    b.page = page.id

    const plan = await call(admin, 'POST', '/api/admin/plans/', {
      name: { en: 'BRAVO plan' },
      price_paisa: 50000,
      days: 30,
      active: true,
    })
    expect(plan.status, plan.raw).toBe(201)
    b.plan = plan.body.id
    const payment = await t.db
      .insertInto('payments')
      .values({
        user_id: learner.id,
        plan_id: Number(b.plan),
        provider: 'fake',
        amount_paisa: 50000,
        days: 30,
        status: 'pending',
        failure_reason: null,
        provider_ref: 'BRAVO-REF',
        provider_transaction_id: null,
        created_at: now,
        updated_at: now,
        completed_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    b.payment = payment.id
    await t.db
      .insertInto('notifications')
      .values({
        user_id: learner.id,
        kind: 'result',
        text_en: 'BRAVO notice',
        link: null,
        created_at: now,
        read_at: null,
      })
      .execute()

    const csv = 'Question,Option A,Option B,Correct,Topic,Tags\r\nBRAVO imported question,Yes,No,A,BravoTopic,BravoTag'
    const form = multipart({}, [
      { field: 'file', filename: 'bravo.csv', contentType: 'text/csv', data: Buffer.from(csv) },
    ])
    const dryRun = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/',
      headers: { ...(await bearerHeaders(admin)), ...form.headers },
      payload: form.payload,
    })
    expect(dryRun.statusCode, dryRun.body).toBe(201)
    b.import = dryRun.json<{ id: number }>().id
    return b
  }

  async function bearerHeaders(user: TestUser) {
    const access = await t.tokens.signAccess({
      id: user.id,
      username: user.username,
      is_admin: user.is_admin === 1,
      is_marker: false,
    })
    return { authorization: `Bearer ${access}` }
  }

  /** B's strings that no answer on A's host may hold: every title, username, text, tag, source and picture of B. */
  async function secretsOf(b: BIds) {
    const of = async (query: ReturnType<typeof sql<{ s: string | null }>>) =>
      (await query.execute(t.db)).rows.flatMap((row) => (row.s ? [row.s] : []))
    return [
      ...new Set([
        ...(await of(sql`select title_en as s from quizzes where institute_id = 1`)),
        ...(await of(sql`select name as s from tags where institute_id = 1`)),
        ...(await of(sql`select source as s from questions where institute_id = 1`)),
        ...(await of(sql`select text_en as s from passages where institute_id = 1`)),
        ...(await of(sql`select username as s from users where username like 'bravo%'`)),
        ...(await of(sql`select name_en as s from institutes where id = 1`)),
        'BRAVO',
        'BravoTag',
        'bravotag',
        'BravoTopic',
        String(b.picture),
      ]),
    ]
  }

  it('shows A nothing of B on any route, 404s B’s ids, and leaves B’s rows as they were', async () => {
    const b = await fillB()
    // B as it stands: nothing A does below, its own setup included, may add to it or change it.
    await flushShows()
    const before = await rowsOf(t, 1)
    const alpha = await createInstitutesService({ database: t.database, config: t.config, clock: t.clock }).create({
      slug: 'alpha',
      name: { en: 'Alpha' },
      hosts: [A_HOST],
    })
    const asA = {
      admin: await memberOf({ slug: 'alpha' }, 'admin', 'alpha_admin'),
      learner: await memberOf({ slug: 'alpha' }, 'learner', 'alpha_learner'),
    }
    const injectA = (role: Role, method: HTTPMethods, url: string, payload?: unknown) =>
      t.app.inject({
        method,
        url,
        headers: asA[role].headers,
        ...(payload === undefined ? {} : { payload: payload as object }),
      })

    // A's own: a quiz the learner sat, and a bank question with a picture of its own.
    const a: BIds = {}
    const aQuiz = await inRequestScope({ requestId: 'seed', institute: alpha }, () =>
      openQuiz(t, { title_en: 'Alpha quiz' }, { questions: [{ text: 'Alpha question' }] }),
    )
    a.quiz = aQuiz.quiz.id
    const aSubmitted = await injectA('learner', 'POST', `/api/quizzes/${a.quiz}/submit/`, { answers: {} })
    expect(aSubmitted.statusCode, aSubmitted.body).toBe(200)
    a.attempt = aSubmitted.json<{ attempt_id: number }>().attempt_id
    const aBank = await injectA('admin', 'POST', '/api/admin/bank/questions/', {
      ...questionBody({ text: { en: 'Alpha bank question', ne: '' } }),
      image: { picture: dataUrl(await png(40, 30, { colour: '#abcdef' })) },
      tags: ['AlphaTag'],
    })
    expect(aBank.statusCode, aBank.body).toBe(201)
    a.picture = /([0-9a-f]{64})\.webp/.exec(
      aBank.json<{ image: { picture: { url: string } } }>().image.picture.url,
    )![1]!

    const secrets = await secretsOf(b)
    // B's passage is in B's pool only: A's whole-passage count for B's topic holds no passage.
    const pool = await injectA('admin', 'GET', '/api/admin/bank/passages/pool/?topic=BravoTopic')
    expect(pool.json()).toEqual({ passage_sizes: [] })

    // Every GET route of the app is walked or exempt with a reason.
    const spec = (t.app as unknown as { swagger: () => { paths: Record<string, Record<string, unknown>> } }).swagger()
    const gets = Object.entries(spec.paths)
      .filter(([, operations]) => 'get' in operations)
      .map(([path]) => path)
    expect(gets.filter((path) => !(path in walks) && !(path in exempt))).toEqual([])
    expect(Object.keys(walks).filter((path) => !gets.includes(path))).toEqual([])
    // And none the document leaves out: what Fastify serves is walked, exempt, or named as undocumented.
    const documented = new Set(gets.map(withoutSlash))
    const served = [...servedGetRoutes(t.app.printRoutes({ commonPrefix: false }))]
    expect(served).toContain('/api/admin/quizzes/{id}/statistics')
    expect(served).toContain('/api/payments/fake/checkout')
    expect(
      served.filter(
        (path) =>
          // Outside /api: the web app's built files and pages, which hold no institute's data (decision 106).
          path.startsWith('/api') &&
          !documented.has(withoutSlash(path)) &&
          !Object.keys(undocumented).some((prefix) => withoutSlash(path).startsWith(prefix)),
      ),
    ).toEqual([])

    const leaks: string[] = []
    for (const [route, walk] of Object.entries(walks)) {
      for (const role of walk.as) {
        for (const { url, bId, refused } of walk.urls(b, a)) {
          const response = await injectA(role, 'GET', url)
          const text = textOf(response.rawPayload, response.headers['content-type'] as string | undefined)
          const found = secrets.filter((secret) => text.includes(secret))
          if (found.length > 0) leaks.push(`${role} GET ${url} (${route}) shows ${found.join(', ')}`)
          if (bId && response.statusCode !== 404) leaks.push(`${role} GET ${url} -> ${response.statusCode}, not 404`)
          if (refused && response.statusCode < 400)
            leaks.push(`${role} GET ${url} -> ${response.statusCode}, not refused`)
          if (!bId && !refused && response.statusCode >= 400) leaks.push(`${role} GET ${url} -> ${response.statusCode}`)
        }
      }
    }

    for (const write of writes) {
      const response = await injectA(write.as, write.method, write.url(b), write.body?.(b))
      const text = response.body
      if (response.statusCode < 300) leaks.push(`${write.as} ${write.method} ${write.url(b)} -> ${response.statusCode}`)
      const found = secrets.filter((secret) => text.includes(secret))
      if (found.length > 0) leaks.push(`${write.as} ${write.method} ${write.url(b)} shows ${found.join(', ')}`)
    }
    expect(leaks).toEqual([])

    // Counts: A's lists count A's alone.
    const bankList = await injectA('admin', 'GET', '/api/admin/bank/questions/')
    expect(bankList.json<{ count: number }>().count).toBe(2)
    const facets = await injectA('admin', 'GET', '/api/admin/bank/facets/')
    expect(JSON.stringify(facets.json())).toContain('AlphaTag')

    // Nothing of B changed, whatever A read or wrote; A's learner's shown questions are A's.
    await flushShows()
    expect(await rowsOf(t, 1)).toEqual(before)
    const { rows: shown } = await sql<{ n: number | string }>`select count(*) as n from set_shows
      where institute_id = ${alpha}`.execute(t.db)
    expect(Number(shown[0]!.n)).toBeGreaterThan(0)
  }, 120_000)
})

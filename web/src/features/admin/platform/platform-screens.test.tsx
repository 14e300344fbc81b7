import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { sessionStore } from '../../../session/session-store'
import { fakeNetwork, polyfillDialog, renderRoutes } from '../../../test/page-test-utils'
import { formatBytes } from './institutes-page'
import { isPlatformAdminToken } from './platform-route'
import { Component as PlatformScreens } from './platform-screens'
import { actAsUrl } from './platform.api'
import { readQuestionIds } from './question-ids'

vi.setConfig({ testTimeout: 20_000 })
configure({ asyncUtilTimeout: 4000 })
beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

const token = (claims: object) =>
  `e30.${btoa(JSON.stringify({ username: 'root', exp: Math.floor(Date.now() / 1000) + 3600, ...claims })).replace(/=+$/, '')}.sig`
const signInPlatform = () => sessionStore.setTokens({ access: token({ is_platform_admin: true }), refresh: 'r' })

const institute = (id: number, en: string, extra: object = {}) => ({
  id,
  slug: en.toLowerCase(),
  name: { en, ne: '' },
  hosts: [`${en.toLowerCase()}.example.np`],
  logo: null,
  colour: '#1d4ed8',
  sms_sender: null,
  open_registration: true,
  status: 'active',
  usage: { learners: 1200, admins: 2, attempts_this_month: 5400, file_bytes: 2_500_000 },
  ...extra,
})
const routes = () => [{ path: '/platform/*', Component: PlatformScreens }]

describe('platform admin screens', () => {
  it('are for platform admins: another account is told so', async () => {
    sessionStore.setTokens({ access: token({ is_admin: true }), refresh: 'r' })
    fakeNetwork({})
    renderRoutes(routes(), { path: '/platform' })
    expect(await screen.findByText(/These screens are for the platform's admins/)).toBeInTheDocument()
    expect(isPlatformAdminToken(token({ is_platform_admin: 'true' }))).toBe(false)
    expect(isPlatformAdminToken('not-a-token')).toBe(false)
  })

  it('list institutes with their use, and suspend one only after a confirmation', async () => {
    signInPlatform()
    const net = fakeNetwork({
      'GET /api/platform/institutes/': () => ({
        body: { count: 2, results: [institute(1, 'Pathshala'), institute(2, 'Gyan', { status: 'suspended' })] },
      }),
      'PATCH /api/platform/institutes/1/': () => ({ body: institute(1, 'Pathshala', { status: 'suspended' }) }),
      'PATCH /api/platform/institutes/2/': () => ({ body: institute(2, 'Gyan') }),
    })
    renderRoutes(routes(), { path: '/platform' })
    const row = await screen.findByRole('row', { name: /Pathshala/ })
    expect(row).toHaveTextContent('pathshala.example.np')
    expect(row).toHaveTextContent('1,200')
    expect(row).toHaveTextContent('5,400')
    expect(row).toHaveTextContent('2.5 MB')
    expect(screen.getByRole('row', { name: /Gyan/ })).toHaveTextContent('Suspended')
    await userEvent.click(within(row).getByRole('button', { name: 'Suspend Pathshala' }))
    const dialog = await screen.findByRole('dialog', { name: 'Suspend Pathshala?' })
    expect(net.callsTo('PATCH', '/api/platform/institutes/1/')).toHaveLength(0)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }))
    await waitFor(() => expect(net.callsTo('PATCH', '/api/platform/institutes/1/')).toHaveLength(1))
    expect(net.callsTo('PATCH', '/api/platform/institutes/1/')[0]!.body).toEqual({ status: 'suspended' })
    await userEvent.click(screen.getByRole('button', { name: 'Reactivate Gyan' }))
    await waitFor(() =>
      expect(net.callsTo('PATCH', '/api/platform/institutes/2/')[0]?.body).toEqual({ status: 'active' }),
    )
  })

  it('act as admin: a confirmation saying it is recorded, then a link to the institute with the token', async () => {
    signInPlatform()
    const net = fakeNetwork({
      'GET /api/platform/institutes/': () => ({ body: { count: 1, results: [institute(1, 'Pathshala')] } }),
      'POST /api/platform/institutes/1/act/': () => ({ body: { access: 'acting.token' } }),
    })
    renderRoutes(routes(), { path: '/platform' })
    await userEvent.click(await screen.findByRole('button', { name: 'Act as admin of Pathshala' }))
    const dialog = await screen.findByRole('dialog', { name: 'Act as admin of Pathshala?' })
    expect(dialog).toHaveTextContent("recorded in the platform's audit trail and in the institute's")
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(net.callsTo('POST', '/api/platform/institutes/1/act/')).toHaveLength(0)
    await userEvent.click(screen.getByRole('button', { name: 'Act as admin of Pathshala' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Act as admin (recorded)' }))
    const link = await screen.findByRole('link', { name: "Open Pathshala's admin screens" })
    expect(link.getAttribute('href')).toBe('http://pathshala.example.np/platform/act-as#access=acting.token')
    expect(net.callsTo('POST', '/api/platform/institutes/1/act/')).toHaveLength(1)
  })

  it('adds an institute, and says when an address is taken (host_taken)', async () => {
    signInPlatform()
    let calls = 0
    const net = fakeNetwork({
      'GET /api/platform/institutes/': () => ({ body: { count: 0, results: [] } }),
      'POST /api/platform/institutes/': () =>
        ++calls === 1
          ? { status: 409, body: { detail: 'The host gyan.example.np is taken.', code: 'host_taken' } }
          : { status: 201, body: institute(3, 'Gyan') },
    })
    renderRoutes(routes(), { path: '/platform' })
    await userEvent.type(await screen.findByLabelText(/Short name/), 'gyan')
    await userEvent.type(screen.getByLabelText(/Name \(English\)/), 'Gyan')
    await userEvent.type(screen.getByLabelText(/Addresses \(one a line\)/), 'gyan.example.np')
    await userEvent.click(screen.getByRole('button', { name: 'Add the institute' }))
    expect(await screen.findByText('One of these addresses belongs to another institute.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Add the institute' }))
    expect(await screen.findByText('Gyan was added.')).toBeInTheDocument()
    expect(net.callsTo('POST', '/api/platform/institutes/')[0]!.body).toEqual({
      slug: 'gyan',
      name: { en: 'Gyan', ne: '' },
      hosts: ['gyan.example.np'],
      colour: '#1d4ed8',
      open_registration: false,
    })
  })

  it('edits an institute: names, addresses, colour; a taken address is said at its field', async () => {
    signInPlatform()
    let calls = 0
    const net = fakeNetwork({
      'GET /api/platform/institutes/': () => ({
        body: { count: 2, results: [institute(1, 'Pathshala'), institute(2, 'Gyan')] },
      }),
      'PATCH /api/platform/institutes/1/': () =>
        ++calls === 1
          ? { status: 409, body: { detail: 'The host gyan.example.np is taken.', code: 'host_taken' } }
          : { body: institute(1, 'Pathshala Academy') },
    })
    renderRoutes(routes(), { path: '/platform' })
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Pathshala' }))
    const form = await screen.findByRole('region', { name: 'Edit Pathshala' })
    expect(within(form).getByRole('heading', { name: 'Edit Pathshala' })).toHaveFocus()
    const name = within(form).getByLabelText(/Name \(English\)/)
    expect(name).toHaveValue('Pathshala')
    await userEvent.clear(name)
    await userEvent.type(name, 'Pathshala Academy')
    await userEvent.type(within(form).getByLabelText(/Name \(Nepali\)/), 'पाठशाला')
    const hosts = within(form).getByLabelText(/Addresses/)
    await userEvent.type(hosts, '{enter}Gyan.example.np')
    await userEvent.click(within(form).getByRole('button', { name: 'Save the changes' }))
    // 409 host_taken: at the addresses' field, naming the address and whose it is.
    await waitFor(() => expect(hosts).toHaveAccessibleDescription(/gyan.example.np is already the address of Gyan/))
    expect(hosts).toHaveAttribute('aria-invalid', 'true')
    expect(net.callsTo('PATCH', '/api/platform/institutes/1/')[0]!.body).toEqual({
      name: { en: 'Pathshala Academy', ne: 'पाठशाला' },
      hosts: ['pathshala.example.np', 'gyan.example.np'],
      colour: '#1d4ed8',
      open_registration: true,
    })
    await userEvent.clear(hosts)
    await userEvent.type(hosts, 'pathshala.example.np')
    await userEvent.click(within(form).getByRole('button', { name: 'Save the changes' }))
    expect(await screen.findByText('Pathshala Academy was changed.')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Edit Pathshala' })).not.toBeInTheDocument()
    expect(net.callsTo('PATCH', '/api/platform/institutes/1/')[1]!.body).toMatchObject({
      hosts: ['pathshala.example.np'],
    })
  })

  it('edits an institute in Nepali', async () => {
    signInPlatform()
    fakeNetwork({
      'GET /api/platform/institutes/': () => ({ body: { count: 1, results: [institute(1, 'Pathshala')] } }),
    })
    renderRoutes(routes(), { path: '/platform', language: 'ne' })
    await userEvent.click(await screen.findByRole('button', { name: 'Pathshala सम्पादन गर्नुहोस्' }))
    expect(await screen.findByRole('button', { name: 'परिवर्तन सुरक्षित गर्नुहोस्' })).toBeInTheDocument()
  })

  it('schedule a national mock from platform question numbers, and list who takes part', async () => {
    signInPlatform()
    const created = {
      id: 9,
      title: { en: 'National mock: Loksewa', ne: '' },
      duration_minutes: 90,
      live: { starts_at: '2026-12-01T04:15:00.000Z', join_minutes: 15, ends_at: '2026-12-01T06:00:00.000Z' },
      question_count: 3,
      institutes: [{ id: 1, slug: 'pathshala', name: 'Pathshala', quiz_id: 70 }],
    }
    const net = fakeNetwork({
      'GET /api/platform/national-mocks/': () => ({ body: { items: [created] } }),
      'POST /api/platform/national-mocks/': () => ({ status: 201, body: created }),
    })
    renderRoutes(routes(), { path: '/platform/national-mocks' })
    const card = await screen.findByRole('listitem', { name: 'National mock: Loksewa' })
    expect(within(card).getByText('Pathshala')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText(/Title \(English\)/), 'National mock: Loksewa')
    await userEvent.type(screen.getByLabelText(/Platform bank question numbers/), '12, x')
    await userEvent.click(screen.getByRole('button', { name: 'Schedule' }))
    expect(await screen.findByText("Write the questions' numbers, such as 12, 15, 31.")).toBeInTheDocument()
    expect(net.callsTo('POST', '/api/platform/national-mocks/')).toHaveLength(0)
    await userEvent.clear(screen.getByLabelText(/Platform bank question numbers/))
    await userEvent.type(screen.getByLabelText(/Platform bank question numbers/), '12, 15 ३१')
    await userEvent.type(screen.getByLabelText('Starts at'), '2026-12-01T10:00')
    await userEvent.click(screen.getByRole('button', { name: 'Schedule' }))
    expect(await screen.findByText('National mock: Loksewa is scheduled.')).toBeInTheDocument()
    const body = net.callsTo('POST', '/api/platform/national-mocks/')[0]!.body as Record<string, unknown>
    expect(body.sections).toEqual([{ items: [{ question_id: 12 }, { question_id: 15 }, { question_id: 31 }] }])
    expect(body.duration_minutes).toBe(60)
    expect((body.live as { join_minutes: number }).join_minutes).toBe(15)
  })

  it('shows the national board of a mock on the platform: every institute, pseudonyms, no own place', async () => {
    signInPlatform()
    const mock = {
      id: 9,
      title: { en: 'National mock: Loksewa', ne: '' },
      duration_minutes: 90,
      live: { starts_at: '2026-12-01T04:15:00.000Z', join_minutes: 15, ends_at: '2026-12-01T05:45:00.000Z' },
      question_count: 3,
      institutes: [
        { id: 1, slug: 'main', name: 'Main', quiz_id: 70 },
        { id: 2, slug: 'pathshala', name: 'Pathshala', quiz_id: 71 },
      ],
    }
    const net = fakeNetwork({
      'GET /api/platform/national-mocks/': () => ({ body: { items: [mock] } }),
      'GET /api/platform/national-mocks/9/leaderboard/': () => ({
        body: {
          status: 'final',
          participants: 3,
          top: [
            { rank: 1, name: 'Pathshala · K3Q9ZA', score: 2 },
            { rank: 1, name: 'Main · 7TT0PB', score: 2 },
            { rank: 3, name: 'Main · M2C4XD', score: 1 },
          ],
          me: null,
        },
      }),
    })
    renderRoutes(routes(), { path: '/platform/national-mocks' })
    const card = await screen.findByRole('listitem', { name: 'National mock: Loksewa' })
    // Read only when asked: a long list of mocks does not load every board.
    expect(net.callsTo('GET', '/api/platform/national-mocks/9/leaderboard/')).toHaveLength(0)
    const show = within(card).getByRole('button', { name: 'Show the national board' })
    expect(show).toHaveAttribute('aria-expanded', 'false')
    await userEvent.click(show)
    const board = await within(card).findByRole('region', { name: 'National board of National mock: Loksewa' })
    expect(await within(board).findByText('Final.')).toBeInTheDocument()
    expect(board).toHaveTextContent('3 learners')
    const rows = within(board).getAllByRole('row')
    expect(rows.map((row) => row.textContent)).toEqual([
      "National rankInstitute · learner's codeScore",
      '1Pathshala · K3Q9ZA2.00',
      '1Main · 7TT0PB2.00',
      '3Main · M2C4XD1.00',
    ])
    expect(within(card).getByRole('button', { name: 'Hide the national board' })).toHaveAttribute(
      'aria-expanded',
      'true',
    )
  })

  it('says a running national mock has no board yet, in Nepali', async () => {
    signInPlatform()
    fakeNetwork({
      'GET /api/platform/national-mocks/': () => ({
        body: {
          items: [
            {
              id: 9,
              title: { en: 'National mock', ne: 'राष्ट्रिय मक' },
              duration_minutes: 90,
              live: { starts_at: '2026-12-01T04:15:00.000Z', join_minutes: 15, ends_at: '2026-12-01T05:45:00.000Z' },
              question_count: 3,
              institutes: [],
            },
          ],
        },
      }),
      'GET /api/platform/national-mocks/9/leaderboard/': () => ({
        body: { status: 'running', participants: 1200, top: [], me: null },
      }),
    })
    renderRoutes(routes(), { path: '/platform/national-mocks', language: 'ne' })
    await userEvent.click(await screen.findByRole('button', { name: 'राष्ट्रिय लिडरबोर्ड देखाउनुहोस्' }))
    expect(await screen.findByText(/चलिरहेको छ/)).toBeInTheDocument()
    expect(screen.getByText('१,२०० विद्यार्थी')).toBeInTheDocument()
    expect(screen.queryByRole('table', { name: /./ })).not.toBeInTheDocument()
  })

  it('in Nepali', async () => {
    signInPlatform()
    fakeNetwork({
      'GET /api/platform/institutes/': () => ({ body: { count: 1, results: [institute(1, 'Pathshala')] } }),
    })
    renderRoutes(routes(), { path: '/platform', language: 'ne' })
    expect(await screen.findByRole('heading', { name: 'संस्थाहरू', level: 1 })).toBeInTheDocument()
    expect(await screen.findByRole('row', { name: /Pathshala/ })).toHaveTextContent('१,२००')
  })
})

describe('platform helpers', () => {
  it('reads question numbers in Latin or Devanagari digits, and refuses anything else', () => {
    expect(readQuestionIds('12, 15 ३१;7')).toEqual([12, 15, 31, 7])
    expect(readQuestionIds('12, abc')).toBeNull()
    expect(readQuestionIds('  ')).toBeNull()
  })
  it('writes sizes as people read them', () => {
    expect(formatBytes(512, 'en')).toBe('512 B')
    expect(formatBytes(2_500_000, 'en')).toBe('2.5 MB')
    expect(formatBytes(3_000_000_000, 'ne')).toBe('३ GB')
  })
  it("opens an acting token on the institute's first address, else its slug's", () => {
    const here = { protocol: 'https:', host: 'example.np' } as Location
    expect(actAsUrl({ hosts: ['a.np', 'b.np'], slug: 'a' }, 't/1', here)).toBe(
      'https://a.np/platform/act-as#access=t%2F1',
    )
    expect(actAsUrl({ hosts: [], slug: 'gyan' }, 't', here)).toBe('https://gyan.example.np/platform/act-as#access=t')
  })
})

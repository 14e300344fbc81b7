import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/api-error'
import { clockStorageKey, readAnchor, writeAnchor } from './attempt-clock'
import { forgetAllAttempts, loadAttempt, loadQuestion, saveQuestion } from './attempt-store'
import { openAttempt } from './open-attempt'
import type { QuizAttempt } from '@quiz/contracts'
import { QUIZ_ID, makeQuestion, makeSession } from '../../test/quiz-fixtures'

const USER_ID = 3
const T = Date.UTC(2026, 10, 22, 7, 0, 0)

const session = (attemptId: number, remaining: number) =>
  makeSession({ id: attemptId, remaining_seconds: remaining, answers: { '101': 1011 } })

const question = makeQuestion(1)
const offlineError = () => new ApiError(0, 'network_error', 'Failed to fetch')

function open(fetchSession: () => Promise<QuizAttempt>, { online = true, now = T } = {}) {
  return openAttempt(QUIZ_ID, {
    userId: USER_ID,
    fetchSession,
    retryDelaysMs: [1, 1],
    isOnline: () => online,
    now: () => now,
  })
}

beforeEach(() => forgetAllAttempts())

describe('opening an attempt', () => {
  it('asks the server, and keeps the attempt and its countdown anchor on the device', async () => {
    const opened = await open(() => Promise.resolve(session(42, 600)))
    expect(opened).toMatchObject({ fromDevice: false, session: { attempt: { id: 42, remaining_seconds: 600 } } })
    expect((await loadAttempt(USER_ID, QUIZ_ID))?.session.attempt.id).toBe(42)
    expect(readAnchor(clockStorageKey(QUIZ_ID, 42))).toEqual({ remaining: 600, at: T })
  })

  it('opens the device copy offline without asking, the countdown less the time passed since', async () => {
    await open(() => Promise.resolve(session(42, 600)))
    writeAnchor(clockStorageKey(QUIZ_ID, 42), { remaining: 550, at: T + 50_000 })
    const fetchSession = vi.fn(() => Promise.resolve(session(42, 999)))
    const opened = await open(fetchSession, { online: false, now: T + 80_000 })
    expect(fetchSession).not.toHaveBeenCalled()
    expect(opened).toMatchObject({ fromDevice: true, session: { attempt: { id: 42, remaining_seconds: 520 } } })
    expect(opened.session.questions).toEqual(makeSession().questions)
  })

  it('falls back to the device copy after one try when the server does not answer', async () => {
    await open(() => Promise.resolve(session(42, 600)))
    const fetchSession = vi.fn(() => Promise.reject(offlineError()))
    const opened = await open(fetchSession, { now: T + 10_000 })
    expect(fetchSession).toHaveBeenCalledTimes(1)
    expect(opened).toMatchObject({ fromDevice: true, session: { attempt: { remaining_seconds: 590 } } })
  })

  it('never asks the server for an attempt whose time ran out here: that would start the next attempt', async () => {
    await open(() => Promise.resolve(session(42, 600)))
    const fetchSession = vi.fn(() => Promise.resolve(session(43, 900)))
    const opened = await open(fetchSession, { now: T + 600_000 })
    expect(fetchSession).not.toHaveBeenCalled()
    expect(opened).toMatchObject({ fromDevice: true, session: { attempt: { id: 42, remaining_seconds: 0 } } })
  })

  it("passes on the server's refusals rather than opening a copy it no longer allows", async () => {
    await open(() => Promise.resolve(session(42, 600)))
    const refused = new ApiError(403, 'paid_access_required', 'This quiz is for paid members.')
    await expect(open(() => Promise.reject(refused))).rejects.toBe(refused)
  })

  it('with nothing on the device, retries and then gives up', async () => {
    const fetchSession = vi.fn(() => Promise.reject(offlineError()))
    await expect(open(fetchSession, { online: false })).rejects.toMatchObject({ isNetworkError: true })
    expect(fetchSession).toHaveBeenCalledTimes(3)
  })

  it('a new attempt from the server replaces the old one on the device, with its paper and its anchor', async () => {
    await open(() => Promise.resolve(session(42, 600)))
    await saveQuestion(42, 1, question)
    const opened = await open(() => Promise.resolve(session(43, 900)), { now: T + 5_000 })
    expect(opened.session.attempt.id).toBe(43)
    expect((await loadAttempt(USER_ID, QUIZ_ID))?.session.attempt.id).toBe(43)
    expect(await loadQuestion(42, 1)).toBeUndefined()
    expect(readAnchor(clockStorageKey(QUIZ_ID, 42))).toBeNull()
  })

  it("keeps each learner's attempt apart on a shared phone", async () => {
    await open(() => Promise.resolve(session(42, 600)))
    expect(await loadAttempt(USER_ID + 1, QUIZ_ID)).toBeUndefined()
    await expect(
      openAttempt(QUIZ_ID, {
        userId: USER_ID + 1,
        fetchSession: () => Promise.reject(offlineError()),
        retryDelaysMs: [],
        isOnline: () => false,
        now: () => T,
      }),
    ).rejects.toMatchObject({ isNetworkError: true })
  })
})

import type { LivePaper, LivePaperContent, QuizAttempt } from '@quiz/contracts'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { hasLivePaper, keepLivePaper } from '../../api/live-paper'
import { answerFetch, signInAs, type SentRequest } from '../../test/page-test-utils'
import { QUIZ_ID, makeQuestion, makeSession } from '../../test/quiz-fixtures'
import { forgetAllAttempts, loadQuestion, storedQuestionNumbers } from './attempt-store'
import { openAttempt } from './open-attempt'

const USER_ID = 3
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

/** What the server does (docs/decisions/069): AES-256-GCM, the tag after the ciphertext, as WebCrypto makes it. */
async function encryptedPaper(raw: Uint8Array<ArrayBuffer>): Promise<LivePaper> {
  const questions = [1, 2, 3].map((n) => {
    const { number: _number, passage: _passage, ...question } = makeQuestion(n)
    return { ...question, passage_id: null }
  })
  const content: LivePaperContent = { quiz_id: QUIZ_ID, passages: [], questions }
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt'])
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    key,
    new TextEncoder().encode(JSON.stringify(content)),
  )
  return { quiz_id: QUIZ_ID, cipher: 'A256GCM', iv: base64url(iv), data: base64url(new Uint8Array(data)) }
}

/** A started live attempt of those three questions, shown 3, 1, 2, the first with its options reversed. */
function liveSession(paperKey: string | undefined): QuizAttempt {
  const session = makeSession({ id: 42, remaining_seconds: 600, ...(paperKey ? { paper_key: paperKey } : {}) })
  return {
    ...session,
    question_count: 3,
    questions: [{ id: 103, options: [1034, 1033, 1032, 1031] }, { id: 101 }, { id: 102 }],
  }
}

const open = (session: QuizAttempt) =>
  openAttempt(QUIZ_ID, { userId: USER_ID, fetchSession: () => Promise.resolve(session), retryDelaysMs: [1] })

describe("a live mock's paper fetched ahead", () => {
  const raw = crypto.getRandomValues(new Uint8Array(32))
  let sent: SentRequest[]

  beforeEach(async () => {
    await forgetAllAttempts()
    signInAs({ username: 'asha', is_admin: false })
    const paper = await encryptedPaper(raw)
    sent = []
    answerFetch(
      (key) =>
        key.endsWith(`/quizzes/${QUIZ_ID}/live-paper/`) ? { status: 200, body: paper } : { status: 404, body: {} },
      sent,
    )
  })
  afterEach(() => vi.unstubAllGlobals())

  it('is fetched once, kept on the device, and opened at the start with the key: every question there, in order', async () => {
    await keepLivePaper(USER_ID, QUIZ_ID)
    await keepLivePaper(USER_ID, QUIZ_ID)
    expect(sent.filter((request) => request.key.includes('live-paper'))).toHaveLength(1)
    expect(await hasLivePaper(USER_ID, QUIZ_ID)).toBe(true)

    await open(liveSession(base64url(raw)))
    expect(await storedQuestionNumbers(42)).toEqual(new Set([1, 2, 3]))
    const first = await loadQuestion(42, 1)
    expect(first).toMatchObject({ id: 103, number: 1, text: makeQuestion(3).text })
    expect(first!.options.map((option) => option.id)).toEqual([1034, 1033, 1032, 1031])
    expect((await loadQuestion(42, 2))?.id).toBe(101)
    // Unpacked once: the encrypted copy leaves the device.
    expect(await hasLivePaper(USER_ID, QUIZ_ID)).toBe(false)
  })

  it('leaves the questions to be fetched as today without a key, or with a key it does not open with', async () => {
    await keepLivePaper(USER_ID, QUIZ_ID)
    await open(liveSession(undefined))
    expect(await storedQuestionNumbers(42)).toEqual(new Set())
    await open(liveSession(base64url(crypto.getRandomValues(new Uint8Array(32)))))
    expect(await storedQuestionNumbers(42)).toEqual(new Set())
  })
})

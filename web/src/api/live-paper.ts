// A live mock's paper fetched ahead (API.md "Live mocks", WEB.md; docs/decisions/069): encrypted, kept with the
// offline exam's data (decision 019's IndexedDB store), opened at the start with the attempt's `paper_key`.
import type { LivePaper, LivePaperContent, QuizAttempt, QuizQuestion } from '@quiz/contracts'
import { createStore, del, get, set, type UseStore } from 'idb-keyval'
import { api } from './client'

interface KeptLivePaper {
  paper: LivePaper
  savedAt: number
}

let defaultStore: UseStore | undefined
const store = () => (defaultStore ??= createStore('quiz-offline', 'attempts'))
const paperKey = (userId: number, quizId: number) => ['live-paper', userId, quizId]

export async function hasLivePaper(userId: number, quizId: number): Promise<boolean> {
  return (await get<KeptLivePaper>(paperKey(userId, quizId), store())) !== undefined
}

/** Fetches the encrypted paper and keeps it, unless it is kept already. */
export async function keepLivePaper(userId: number, quizId: number, now = Date.now()): Promise<void> {
  if (await hasLivePaper(userId, quizId)) return
  const paper = await api.get<LivePaper>(`/quizzes/${quizId}/live-paper/`)
  await set(paperKey(userId, quizId), { paper, savedAt: now } satisfies KeptLivePaper, store())
}

const bytes = (base64url: string) =>
  Uint8Array.from(atob(base64url.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0))

async function decrypt(paper: LivePaper, key: string): Promise<LivePaperContent> {
  const cryptoKey = await crypto.subtle.importKey('raw', bytes(key), 'AES-GCM', false, ['decrypt'])
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes(paper.iv) }, cryptoKey, bytes(paper.data))
  return JSON.parse(new TextDecoder().decode(plain)) as LivePaperContent
}

/**
 * The attempt's questions from the kept paper, numbered in the attempt's order and with its option order; null when
 * there is no kept paper or it does not open with this key (edited since it was fetched: the questions are fetched).
 * A question the paper lacks is left out, and fetched as today.
 */
export async function openLivePaper(userId: number, session: QuizAttempt): Promise<QuizQuestion[] | null> {
  const key = session.attempt.paper_key
  if (!key) return null
  const kept = await get<KeptLivePaper>(paperKey(userId, session.id), store())
  if (!kept) return null
  let content: LivePaperContent
  try {
    content = await decrypt(kept.paper, key)
  } catch {
    return null
  }
  const passages = new Map((content.passages ?? []).map((passage) => [passage.id, passage]))
  const byId = new Map(
    content.questions.map(({ passage_id, ...question }) => [
      question.id,
      { ...question, passage: passage_id === null ? null : (passages.get(passage_id) ?? null) },
    ]),
  )
  return session.questions.flatMap((ref, index) => {
    const question = byId.get(ref.id)
    if (!question) return []
    const order = ref.options
    const options = order
      ? order.flatMap((id) => question.options.filter((option) => option.id === id))
      : question.options
    return [{ ...question, options, number: index + 1 }]
  })
}

export async function forgetLivePaper(userId: number, quizId: number): Promise<void> {
  await del(paperKey(userId, quizId), store())
}

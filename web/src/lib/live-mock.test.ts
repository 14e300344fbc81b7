import { describe, expect, it } from 'vitest'
import { livePhase, liveStartState } from './live-mock'

const live = {
  starts_at: '2026-11-22T04:15:00.000Z',
  join_ends_at: '2026-11-22T04:30:00.000Z',
  ends_at: '2026-11-22T06:15:00.000Z',
}
const at = (iso: string) => Date.parse(iso)
const quiz = {
  can_start: false,
  has_attempt_in_progress: false,
  remaining_attempts: 3,
  allowed_attempts: 3,
  is_paid_tier: false,
  end_time: null,
}
const now = at('2026-11-22T06:20:00.000Z')

describe('livePhase', () => {
  it('is upcoming before the start, open in the join window, closed until the common end, then ended', () => {
    expect(livePhase(live, at('2026-11-22T04:14:59.999Z'))).toBe('upcoming')
    expect(livePhase(live, at('2026-11-22T04:15:00.000Z'))).toBe('open')
    expect(livePhase(live, at('2026-11-22T04:30:00.000Z'))).toBe('closed')
    expect(livePhase(live, at('2026-11-22T06:15:00.000Z'))).toBe('ended')
  })
})

describe('liveStartState', () => {
  it('waits before the start whatever the list says', () => {
    expect(liveStartState(quiz, 'upcoming', now)).toBe('wait')
  })

  it('starts in the join window when the server allows it, and resumes an attempt in progress', () => {
    expect(liveStartState({ ...quiz, can_start: true }, 'open', now)).toBe('start')
    expect(liveStartState({ ...quiz, can_start: true, has_attempt_in_progress: true }, 'closed', now)).toBe('resume')
  })

  it('in the join window without a start: waits for the server, or says the ranked attempt is done', () => {
    expect(liveStartState(quiz, 'open', now)).toBe('wait')
    expect(liveStartState({ ...quiz, remaining_attempts: 2 }, 'open', now)).toBe('sat')
    expect(liveStartState({ ...quiz, is_paid_tier: true }, 'open', now)).toBe('paid_only')
  })

  it('is closed after the join window, then practice (or why not) after the common end', () => {
    expect(liveStartState({ ...quiz, can_start: true }, 'closed', now)).toBe('closed')
    expect(liveStartState({ ...quiz, can_start: true }, 'ended', now)).toBe('practice')
    expect(liveStartState({ ...quiz, remaining_attempts: 0 }, 'ended', now)).toBe('no_attempts')
  })

  it('after the common end, with attempts left in an open quiz but no start, says practice waits for the key', () => {
    expect(liveStartState(quiz, 'ended', now)).toBe('practice_soon')
    expect(liveStartState({ ...quiz, end_time: '2026-11-22T07:00:00.000Z' }, 'ended', now)).toBe('practice_soon')
    // The quiz has closed since: nothing more opens.
    expect(liveStartState({ ...quiz, end_time: '2026-11-22T06:20:00.000Z' }, 'ended', now)).toBe('no_attempts')
    expect(liveStartState({ ...quiz, is_paid_tier: true }, 'ended', now)).toBe('paid_only')
  })
})

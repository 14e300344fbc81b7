import { describe, expect, it } from 'vitest'
import { announcementFor } from './announcement-messages'

const quiz = { id: 7, title: { en: 'Loksewa mock 1', ne: 'लोकसेवा मक १' }, startsAt: Date.parse('2026-11-24T07:00:00Z') }
const learner = { id: 1, sms_reminders: 1, preferred_language: 'en' }

// API.md "Live mocks", "No SMS in the join window": the 15-minute reminder says the learner stays signed in.
describe("a live mock's reminders", () => {
  it('tells the learner in the 15-minute reminder, in both languages and its SMS, that they stay signed in', () => {
    const quarter = announcementFor('reminder_quarter', quiz, learner)
    expect(quarter.text.en).toContain('You stay signed in on the device you registered on')
    expect(quarter.text.ne).toContain('साइन इन नै रहनुहुन्छ')
    expect(quarter.sms?.text).toBe(quarter.text.en)
    expect(announcementFor('reminder_day', quiz, learner).text.en).not.toContain('signed in')
  })
})

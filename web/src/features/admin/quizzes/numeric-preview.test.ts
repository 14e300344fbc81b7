import { describe, expect, it } from 'vitest'
import { newQuestionDraft, numericPreview, toQuestionPayload, type NumericDraft } from './question-draft'

const numeric = (patch: Partial<NumericDraft>): NumericDraft => ({ ...newQuestionDraft().numeric, ...patch })

describe('numericPreview', () => {
  it('gives the accepted ends exactly and reads examples by the contracts number rule', () => {
    const preview = numericPreview(numeric({ value: '3.14', tolerance: '0.01', decimals: '2' }))
    expect(preview).toMatchObject({ low: '3.13', high: '3.15', decimals: 2 })
    expect(preview?.examples).toEqual([
      { typed: '3.14', reads: '3.14', accepted: true },
      { typed: '३.१४', reads: '3.14', accepted: true },
      { typed: '3.140', reads: null, accepted: false },
    ])
  })

  it('reads a range and whole numbers only, and is null while the key is not one', () => {
    expect(numericPreview(numeric({ mode: 'range', min: '1', max: '5', decimals: '0' }))).toMatchObject({
      low: '1',
      high: '5',
      decimals: 0,
    })
    expect(numericPreview(numeric({ mode: 'range', min: '5', max: '1' }))).toBeNull()
    expect(numericPreview(numeric({ value: 'abc' }))).toBeNull()
    expect(numericPreview(numeric({ value: '1', decimals: '9' }))).toBeNull()
  })
})

describe('toQuestionPayload', () => {
  it('sends a numeric question without options, and a multiple one with its right set', () => {
    const draft = newQuestionDraft()
    expect(
      toQuestionPayload({ ...draft, type: 'numeric', numeric: numeric({ value: '11', tolerance: '', decimals: '' }) }),
    ).toMatchObject({ type: 'numeric', options: [], answer: { value: 11, tolerance: 0 }, decimals: null })
    const options = draft.options.map((option, index) => ({ ...option, is_correct: index !== 1 }))
    const payload = toQuestionPayload({ ...draft, type: 'multiple', options })
    expect(payload.type).toBe('multiple')
    expect(payload.options.map((option) => option.is_correct)).toEqual([true, false, true, true])
  })
})

import { liveMessages } from '@quiz/contracts'
import { expect, it } from 'vitest'
import { JOIN_CLOSED_DETAIL } from './live-mock'

it("copies the contract's join-closed refusal word for word", () => {
  expect(JOIN_CLOSED_DETAIL).toBe(liveMessages.joinClosed)
})

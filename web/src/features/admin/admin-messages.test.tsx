import { adminMessages, liveMessages, planMessages } from '@quiz/contracts'
import { act, renderHook } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import i18n, { initI18n } from '../../i18n/i18n'
import './admin.i18n'
import { useAdminMessages } from './forms'

// A rule the server states on a field reaches the admin in Nepali too: every contract message of the admin's
// forms has its translation, so none is shown in English to an admin reading Nepali.
describe('useAdminMessages', () => {
  const messages = [...Object.values(adminMessages), ...Object.values(liveMessages), ...Object.values(planMessages)]
  it.each([
    liveMessages.joinMinutes,
    liveMessages.startsBeforeQuiz,
    liveMessages.endsBeforeCommonEnd,
    liveMessages.joinAfterEnd,
    liveMessages.attemptsRunning,
  ])('says "%s" in Nepali', async (message) => {
    expect(messages).toContain(message)
    if (!i18n.isInitialized) initI18n('ne')
    await act(() => i18n.changeLanguage('ne'))
    const { result, unmount } = renderHook(() => useAdminMessages())
    const said = result.current(message)
    unmount()
    await act(() => i18n.changeLanguage('en'))
    expect(said).not.toBe(message)
    expect(said).toMatch(/[\u0900-\u097F]/)
  })
})

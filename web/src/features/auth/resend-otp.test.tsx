import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/api-error'
import { renderWithProviders } from '../../test/render'
import { ResendOtp } from './resend-otp'

const readyCountdown = () => ({ secondsLeft: 0, canResend: true, start: vi.fn() })

describe('resend OTP link', () => {
  it('says a new code went out and starts the wait again', async () => {
    const countdown = readyCountdown()
    const onStatus = vi.fn()
    renderWithProviders(
      <ResendOtp
        countdown={countdown}
        send={async () => undefined}
        onStatus={onStatus}
        failed="login.otp_send_failed"
      />,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Resend OTP' }))
    await waitFor(() => expect(onStatus).toHaveBeenCalledWith({ kind: 'success', keys: ['otp_step.resent'] }))
    expect(countdown.start).toHaveBeenCalledTimes(1)
  })

  it("shows the screen's failure, with the wait note on 429, and keeps the link", async () => {
    const countdown = readyCountdown()
    const onStatus = vi.fn()
    const send = () => Promise.reject(new ApiError(429, 'rate_limited', 'Too many.'))
    renderWithProviders(
      <ResendOtp
        countdown={countdown}
        send={send}
        onStatus={onStatus}
        resent="reset.resent"
        failed="reset.resend_failed"
      />,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Resend OTP' }))
    await waitFor(() =>
      expect(onStatus).toHaveBeenCalledWith({ kind: 'error', keys: ['reset.resend_failed', 'rate_limited'] }),
    )
    expect(countdown.start).not.toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Resend OTP' })).toBeEnabled()
  })
})

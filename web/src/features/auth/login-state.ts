/** What /register and /reset-password hand to /login in the router state: which success message to show. */
export type LoginNotice = 'registered' | 'password_reset'

export interface LoginState {
  notice?: LoginNotice
}

export function readLoginNotice(state: unknown): LoginNotice | null {
  const notice = (state as LoginState | null)?.notice
  return notice === 'registered' || notice === 'password_reset' ? notice : null
}

/** Also used by /reset-password, which opens with "OTP sent to your phone." after /forgot-password sent one. */
export interface ResetPasswordState {
  otpSent?: boolean
}

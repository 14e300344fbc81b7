/** Server `detail` texts that API.md fixes word for word. */
export const messages = {
  invalidPhone: 'Please enter a valid 10-digit phone number.',
  invalidOtp: 'Invalid or expired OTP.',
  phoneNotVerified: 'Phone number has not been verified.',
  quizNotActive: 'Quiz not found or is no longer active.',
  noAttemptsLeft: 'You have no attempts remaining for this quiz.',
  paidAccessRequired: 'This quiz is for paid members.',
} as const

// The auth forms' resolvers, loaded on a form's first check (lazyResolver): zod stays off the first screen.
import { zodResolver } from '@hookform/resolvers/zod'
import {
  isTooSimilar,
  NewPasswordSchema,
  OtpInputSchema,
  passwordsMatch,
  RegisterRequestSchema,
  requiredMessage,
  usersMessages,
} from '@quiz/contracts'
import { z } from 'zod'

/** An empty field says "required" before the contract's own rule would call it, say, an invalid phone number. */
const filled = <T extends z.ZodType<unknown, string>>(schema: T) =>
  z
    .string()
    .refine((value) => value.trim() !== '', requiredMessage)
    .pipe(schema)

export const codeResolver = zodResolver(z.object({ otp: OtpInputSchema }))
export const resetResolver = zodResolver(
  z
    .object({ otp: OtpInputSchema, password: filled(NewPasswordSchema), password2: filled(z.string()) })
    .refine((body) => body.password === body.password2, passwordsMatch),
)

/** The server also refuses a password like the username; asked here too, so no code is spent on it. */
const notLikeUsername = {
  message: usersMessages.passwordSimilar,
  path: ['password'],
  when: (payload: { value: unknown }) => {
    const value = payload.value as { username?: unknown; password?: unknown } | undefined
    return typeof value?.username === 'string' && typeof value?.password === 'string'
  },
}
const register = RegisterRequestSchema.shape
export const registerResolver = zodResolver(
  z
    .object({
      username: filled(register.username),
      phone: filled(register.phone_number),
      password: filled(register.password),
      password2: filled(register.password2),
    })
    .refine(({ username, password }) => !isTooSimilar(password, username), notLikeUsername)
    .refine((body) => body.password === body.password2, passwordsMatch),
)

// The auth forms' resolvers, loaded on a form's first check (lazyResolver): zod stays off the first screen.
import { zodResolver } from '@hookform/resolvers/zod'
import { NewPasswordSchema, OtpInputSchema, passwordsMatch, requiredMessage } from '@quiz/contracts'
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

import { z } from 'zod'
import { BilingualSchema } from './common'

export const InstituteSlugSchema = z.string().regex(/^[a-z0-9-]{3,30}$/, 'A slug is 3 to 30 of a-z, 0-9 and -.')

export const LogoSchema = z.object({ url: z.string(), width: z.number().int(), height: z.number().int() })

/** `GET /api/institute/`: the branding of the institute a host is for (API.md "Institutes"). */
export const InstituteBrandingSchema = z.object({
  slug: z.string(),
  name: BilingualSchema,
  logo: LogoSchema.nullable(),
  colour: z.string(),
  open_registration: z.boolean(),
})
export type InstituteBranding = z.infer<typeof InstituteBrandingSchema>

// The platform admins' routes (API.md "Institutes: many on one deployment", "Platform admins"; docs/decisions/097).
import { z } from 'zod'
import { BilingualSchema } from './common'
import { InstituteSlugSchema, LogoSchema } from './institutes'
import { PageQuerySchema, PageSizeQuerySchema } from './institutions'
import { pictureMessages } from './pictures'

export const platformLimits = { hosts: 20, hostLength: 253, name: 200 } as const

export const platformMessages = {
  colour: 'A colour is #rrggbb, such as #1f6feb.',
  host: 'A host is a domain name such as pathshala.example.np.',
  name: 'A name is 1 to 200 characters.',
} as const

/** What an institute uses of the deployment: members by role, attempts started this Nepal month, stored bytes. */
export const InstituteUsageSchema = z.object({
  learners: z.number().int(),
  admins: z.number().int(),
  attempts_this_month: z.number().int(),
  file_bytes: z.number().int(),
})
export type InstituteUsage = z.infer<typeof InstituteUsageSchema>

export const PlatformInstituteSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: BilingualSchema,
  hosts: z.array(z.string()),
  logo: LogoSchema.nullable(),
  colour: z.string(),
  sms_sender: z.string().nullable(),
  open_registration: z.boolean(),
  status: z.enum(['active', 'suspended']),
  usage: InstituteUsageSchema,
})
export type PlatformInstitute = z.infer<typeof PlatformInstituteSchema>

export const PlatformInstitutePageSchema = z.object({
  count: z.number().int(),
  results: z.array(PlatformInstituteSchema),
})
export type PlatformInstitutePage = z.infer<typeof PlatformInstitutePageSchema>

export const PlatformInstitutesQuerySchema = z.object({ page: PageQuerySchema, page_size: PageSizeQuerySchema })

const HostSchema = z.string().trim().min(1).max(platformLimits.hostLength, platformMessages.host)
const ColourSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, platformMessages.colour)
/** `{picture: "data:image/...;base64,..."}` as question images take one, or null to remove the logo. */
const LogoInputSchema = z.object({ picture: z.string().regex(/^data:/, pictureMessages.notAPicture) }).nullable()

export const PlatformInstituteCreateSchema = z.object({
  slug: InstituteSlugSchema,
  name: z.object({
    en: z.string().trim().min(1, platformMessages.name).max(platformLimits.name, platformMessages.name),
    ne: z.string().trim().max(platformLimits.name, platformMessages.name).default(''),
  }),
  hosts: z.array(HostSchema).max(platformLimits.hosts).default([]),
  colour: ColourSchema.optional(),
  open_registration: z.boolean().optional(),
  logo: LogoInputSchema.optional(),
})
export type PlatformInstituteCreate = z.input<typeof PlatformInstituteCreateSchema>

/** Every field optional: one left out keeps its value. */
export const PlatformInstituteUpdateSchema = z.object({
  name: z
    .object({
      en: z.string().trim().min(1, platformMessages.name).max(platformLimits.name, platformMessages.name),
      ne: z.string().trim().max(platformLimits.name, platformMessages.name).default(''),
    })
    .optional(),
  hosts: z.array(HostSchema).max(platformLimits.hosts).optional(),
  status: z.enum(['active', 'suspended']).optional(),
  colour: ColourSchema.optional(),
  open_registration: z.boolean().optional(),
  logo: LogoInputSchema.optional(),
})
export type PlatformInstituteUpdate = z.input<typeof PlatformInstituteUpdateSchema>

export const PlatformInstituteIdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) })

/** `POST /api/platform/institutes/{id}/act/`: an admin access token of that institute for 15 minutes, no refresh. */
export const ActAsSchema = z.object({ access: z.string() })
export type ActAs = z.infer<typeof ActAsSchema>

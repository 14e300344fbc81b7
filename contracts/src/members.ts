// Request and response schemas of API.md "Institutes: many on one deployment": accounts, memberships and members.
import { z } from 'zod'
import { BilingualSchema, IsoDateTimeSchema, PhoneNumberSchema } from './common'
import { AdminUsersQuerySchema } from './institutions'
import { LogoSchema } from './institutes'
import { LoginRequestSchema } from './auth'
import { OtpInputSchema } from './users'

export const RoleSchema = z.enum(['learner', 'admin', 'marker'])
export type Role = z.infer<typeof RoleSchema>

export const membersLimits = { phoneNumbers: 1000 } as const

export const membersMessages = {
  tooManyPhones: `Send at most ${membersLimits.phoneNumbers} phone numbers at a time.`,
  noPhones: 'Send at least one phone number.',
  noRoles: 'A member has at least one role; DELETE ends a membership.',
} as const

/** `GET /api/users/memberships/`: the caller's account's institutes and its roles in each. */
export const MembershipSchema = z.object({
  institute: z.object({
    slug: z.string(),
    name: BilingualSchema,
    hosts: z.array(z.string()),
    logo: LogoSchema.nullable(),
  }),
  roles: z.array(RoleSchema),
})
export type Membership = z.infer<typeof MembershipSchema>
export const MembershipListSchema = z.array(MembershipSchema)

/** `POST /api/institute/join/`: the credentials of a sign-in, a password or a login code. */
export const JoinRequestSchema = z.union([
  LoginRequestSchema,
  z.object({ phone_number: PhoneNumberSchema, otp: OtpInputSchema }),
])
export type JoinRequest = z.infer<typeof JoinRequestSchema>

/** `GET /api/admin/members/`: search and paging as the users list, and one role. */
export const MembersQuerySchema = AdminUsersQuerySchema.extend({ role: RoleSchema.optional() })
export type MembersQuery = z.input<typeof MembersQuerySchema>

export const MemberSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  full_name: z.string(),
  phone_number: z.string(),
  roles: z.array(RoleSchema),
  joined_at: IsoDateTimeSchema,
})
export type Member = z.infer<typeof MemberSchema>
export const MemberPageSchema = z.object({ count: z.number().int(), results: z.array(MemberSchema) })
export type MemberPage = z.infer<typeof MemberPageSchema>

export const AddMembersRequestSchema = z.object({
  phone_numbers: z
    .array(PhoneNumberSchema)
    .min(1, membersMessages.noPhones)
    .max(membersLimits.phoneNumbers, membersMessages.tooManyPhones),
  role: RoleSchema,
})
export type AddMembersRequest = z.infer<typeof AddMembersRequestSchema>

/** Each phone sent, in one of three: made a member now, invited (no account yet), already had the role. */
export const AddMembersResponseSchema = z.object({
  added: z.array(z.string()),
  invited: z.array(z.string()),
  already: z.array(z.string()),
})
export type AddMembersResponse = z.infer<typeof AddMembersResponseSchema>

export const MemberRolesPatchSchema = z.object({
  roles: z
    .array(RoleSchema)
    .min(1, membersMessages.noRoles)
    .transform((roles) => [...new Set(roles)]),
})
export type MemberRolesPatch = z.input<typeof MemberRolesPatchSchema>

export const MemberParamsSchema = z.object({ user_id: z.coerce.number().int().positive().max(2_147_483_647) })

import {
  CheckPhoneRequestSchema,
  CheckUsernameRequestSchema,
  DetailSchema,
  ExistsResponseSchema,
  OtpSendRequestSchema,
  OtpSendResponseSchema,
  OtpVerifyRequestSchema,
  OtpVerifyResponseSchema,
  PasswordChangeRequestSchema,
  PasswordResetRequestSchema,
  ProfileSchema,
  ProfileUpdateFieldsSchema,
  RegisteredUserSchema,
  RegisterRequestSchema,
  usersMessages,
} from '@quiz/contracts'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { OtpService } from '../auth/otp.service'
import { actorOf } from '../audit/audit-log'
import { AppError, PayloadTooLarge, ValidationFailed, type FieldErrors } from '../http/errors'
import { loginClientOf } from '../http/login-client'
import { isTrue, type ProfileService } from './profile.service'
import type { UsersService } from './users.service'

const ProfilePictureParamsSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) })
const PROFILE_PICTURE_MAX_MB = 5

/** API.md "Users, OTP and registration", and the profile. Registered with prefix /api/users. */
export const usersRoutes: FastifyPluginAsyncZod<{
  users: UsersService
  profiles: ProfileService
  otp: OtpService
}> = async (app, { users, profiles, otp }) => {
  app.post(
    '/check-username/',
    { schema: { tags: ['users'], body: CheckUsernameRequestSchema, response: { 200: ExistsResponseSchema } } },
    async (request) => ({ exists: await users.usernameExists(request.body.username, request.ip) }),
  )

  app.post(
    '/check-phone/',
    { schema: { tags: ['users'], body: CheckPhoneRequestSchema, response: { 200: ExistsResponseSchema } } },
    async (request) => ({ exists: await users.phoneExists(request.body.phone_number, request.ip) }),
  )

  app.post(
    '/otp/send/',
    {
      schema: {
        tags: ['users'],
        summary: 'Text a one-time code',
        body: OtpSendRequestSchema,
        response: { 200: OtpSendResponseSchema },
      },
    },
    (request) => otp.send(request.body, request.ip),
  )

  app.post(
    '/otp/verify/',
    {
      schema: {
        tags: ['users'],
        summary: 'Check a one-time code',
        body: OtpVerifyRequestSchema,
        response: { 200: OtpVerifyResponseSchema },
      },
    },
    (request) => otp.verify(request.body, loginClientOf(request)),
  )

  app.post(
    '/register/',
    { schema: { tags: ['users'], body: RegisterRequestSchema, response: { 201: RegisteredUserSchema } } },
    async (request, reply) => reply.status(201).send(await users.register(request.body, request.ip)),
  )

  app.post(
    '/password-reset/',
    { schema: { tags: ['users'], body: PasswordResetRequestSchema, response: { 200: DetailSchema } } },
    async (request) => {
      await users.resetPassword(request.body, request.ip)
      return { detail: usersMessages.passwordReset }
    },
  )

  app.post(
    '/password/',
    {
      schema: {
        tags: ['users'],
        summary: 'Change my password; my other logins are logged out',
        security: [{ bearer: [] }],
        body: PasswordChangeRequestSchema,
        response: { 200: DetailSchema },
      },
      preHandler: app.authenticateLiveLogin,
    },
    async (request) => {
      await users.changePassword(request.user, request.body, request.ip)
      return { detail: usersMessages.passwordChanged }
    },
  )

  app.get(
    '/profile/',
    {
      schema: { tags: ['users'], security: [{ bearer: [] }], response: { 200: ProfileSchema } },
      preHandler: app.authenticate,
    },
    (request) => profiles.getProfile(request.user.id),
  )

  app.put(
    '/profile/',
    {
      schema: {
        tags: ['users'],
        summary: 'Update the profile (multipart/form-data)',
        consumes: ['multipart/form-data'],
        security: [{ bearer: [] }],
        response: { 200: ProfileSchema },
      },
      preHandler: app.authenticate,
    },
    async (request) => {
      const form = await readProfileForm(request)
      const parsed = ProfileUpdateFieldsSchema.safeParse(form.fields)
      if (!parsed.success) {
        const errors: FieldErrors = {}
        for (const issue of parsed.error.issues)
          (errors[issue.path.join('.') || 'non_field_errors'] ??= []).push(issue.message)
        throw new ValidationFailed(errors)
      }
      const { remove_picture: removePicture, ...fields } = parsed.data
      return profiles.updateProfile(actorOf(request), {
        fields,
        picture: form.picture,
        removePicture: removePicture !== undefined && isTrue(removePicture),
      })
    },
  )

  // Public on purpose: an <img> sends no bearer token. The id is random and each upload gets a new one,
  // so the response never changes and may be cached for a year.
  app.get(
    '/profile-pictures/:id',
    { schema: { tags: ['users'], params: ProfilePictureParamsSchema } },
    async (request, reply) => {
      const picture = await profiles.picture(request.params.id)
      if (!picture) return reply.callNotFound()
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type(picture.content_type)
        .send(picture.data)
    },
  )
}

/** Reads the multipart body: text fields by name, and the bytes of the `profile_picture` file if one was chosen. */
async function readProfileForm(request: FastifyRequest): Promise<{ fields: Record<string, string>; picture?: Buffer }> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'unsupported_media_type', 'Send the profile as multipart/form-data.')
  }
  const fields: Record<string, string> = {}
  let picture: Buffer | undefined
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer()
        // A form whose file input was left empty still sends an empty part: that means "no new picture".
        if (part.fieldname === 'profile_picture' && bytes.length > 0) picture = bytes
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new PayloadTooLarge(`The profile picture must be at most ${PROFILE_PICTURE_MAX_MB} MB.`)
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new PayloadTooLarge('The form has too many parts: send at most one file.')
    }
    // Anything else here is the body itself being malformed (busboy's "Unexpected end of form" and the like).
    throw new AppError(400, 'validation_error', 'Malformed multipart body.')
  }
  return { fields, picture }
}

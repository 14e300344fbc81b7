import {
  CheckPhoneRequestSchema,
  CheckUsernameRequestSchema,
  MembershipListSchema,
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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { OtpService } from '../auth/otp.service'
import { actorOf } from '../audit/audit-log'
import { parseFields } from '../http/field-errors'
import { readMultipartForm, type MultipartRules } from '../http/multipart'
import { loginClientOf } from '../http/login-client'
import { isTrue, type ProfileService } from './profile.service'
import type { UsersService } from './users.service'
import type { MembersService } from '../institutes/members.service'

const ProfilePictureParamsSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) })
const PROFILE_PICTURE_MAX_MB = 5

const profileForm: MultipartRules = {
  fileField: 'profile_picture',
  limits: { fileSize: PROFILE_PICTURE_MAX_MB * 1024 * 1024, files: 1, fields: 20, fieldSize: 64 * 1024 },
  notMultipart: 'Send the profile as multipart/form-data.',
  fileTooLarge: `The profile picture must be at most ${PROFILE_PICTURE_MAX_MB} MB.`,
  tooManyParts: 'The form has too many parts: send at most one file.',
}

export const usersRoutes: FastifyPluginAsyncZod<{
  users: UsersService
  profiles: ProfileService
  otp: OtpService
  members: MembersService
}> = async (app, { users, profiles, otp, members }) => {
  app.get(
    '/memberships/',
    {
      schema: {
        tags: ['users'],
        summary: "My account's institutes and my roles in each",
        security: [{ bearer: [] }],
        response: { 200: MembershipListSchema },
      },
      preHandler: app.authenticate,
    },
    (request) => members.membershipsOf(request.user.id),
  )

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
    (request) => otp.send(request.body, request.ip, request.institute.id),
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
    async (request, reply) =>
      reply.status(201).send(await users.register(request.body, request.ip, request.institute.id)),
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
      const form = await readMultipartForm(request, profileForm)
      const { remove_picture: removePicture, ...fields } = parseFields(ProfileUpdateFieldsSchema, form.fields)
      return profiles.updateProfile(actorOf(request), {
        fields,
        picture: form.file?.bytes,
        removePicture: removePicture !== undefined && isTrue(removePicture),
      })
    },
  )

  // Public: an <img> sends no bearer token. The id is random and new per upload, so it may be cached a year.
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

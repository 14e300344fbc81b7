import type { FastifyReply, FastifyRequest } from 'fastify'
import { RateLimited, ValidationFailed } from './errors'
import { readMultipartForm } from './multipart'
import { uploadTurn } from './upload-turns'

/** One kind of photo upload: a form of one image (field `image`) and a few short fields, refused in its own words. */
export interface PhotoForm {
  photoBytes: number
  messages: {
    notMultipart: string
    photoTooLarge: string
    tooManyParts: string
    noPhoto: string
    photosBusy: string
  }
}

/** The photo and its form's few fields. */
export const photoBodyLimit = (form: PhotoForm) => form.photoBytes + 1024 * 1024

/** Reads the form in its upload turn (http/upload-turns.ts) and gives `work` the photo's bytes and the fields. */
export function withPhotoForm<T>(
  form: PhotoForm,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (photo: Buffer, fields: Record<string, string>) => Promise<T>,
): Promise<T> {
  const { messages } = form
  return uploadTurn(
    request,
    reply,
    photoBodyLimit(form),
    async () => {
      const { fields, file } = await readMultipartForm(request, {
        fileField: 'image',
        limits: { fileSize: form.photoBytes, files: 1, fields: 5, fieldSize: 1024 },
        notMultipart: messages.notMultipart,
        fileTooLarge: messages.photoTooLarge,
        tooManyParts: messages.tooManyParts,
      })
      if (!file) throw new ValidationFailed({ image: [messages.noPhoto] }, messages.noPhoto)
      return work(file.bytes, fields)
    },
    () => new RateLimited(5, messages.photosBusy),
  )
}

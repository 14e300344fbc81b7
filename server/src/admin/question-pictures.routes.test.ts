import { adminMessages, PICTURE_URL_PATTERN, pictureLimits, pictureMessages } from '@quiz/contracts'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { questionBody, TRIANGLE_SVG, twoOptions } from '../../test/fixtures/admin.fixtures'
import {
  animatedGif,
  dataUrl,
  hugeCanvasPng,
  jpegWithGps,
  noisyJpeg,
  png,
  pngDeclaring,
} from '../../test/fixtures/pictures'
import { useTestApp } from '../../test/test-app'

type Headers = Record<string, string>
const NO_CAPTION = { en: '', ne: '', html: null }
const hashOf = (url: string) => PICTURE_URL_PATTERN.exec(url)![1]!

/** The body of a question whose image, and first option's image, are the given pictures. */
const withPictures = (picture: unknown, optionPicture?: unknown, extra: Record<string, unknown> = {}) =>
  questionBody({
    image: { picture, caption: { en: 'A map' } },
    options: [
      {
        text: { en: 'Yes' },
        is_correct: true,
        ...(optionPicture === undefined ? {} : { image: { picture: optionPicture } }),
      },
      { text: { en: 'No' }, is_correct: false },
    ],
    ...extra,
  })

describe.each(dialects)('pictures in questions on %s', (dialect) => {
  const t = useTestApp(dialect)

  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
  const send = async (headers: Headers, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload: payload as object } : {}) })
    return { status: response.statusCode, body: response.json() }
  }
  const storedPictures = () => t.db.selectFrom('pictures').select(['hash', 'width', 'height', 'data']).execute()
  // The row names the file; its bytes are in the file store (docs/decisions/105, 112).
  const storedData = async (url: string) => {
    const row = await t.db
      .selectFrom('pictures')
      .select(['data', 'data_key'])
      .where('hash', '=', hashOf(url))
      .executeTakeFirstOrThrow()
    expect(row.data.length).toBe(0)
    return (await t.files.get(row.data_key!))!
  }
  const revisionsOf = async (questionId: number) =>
    (await t.db.selectFrom('question_revisions').select('id').where('question_id', '=', questionId).execute()).length

  async function newQuestion(headers: Headers, body: unknown) {
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 1 })
    const response = await send(headers, 'POST', `/api/admin/quizzes/${quiz.id}/questions/`, body)
    return { quizId: quiz.id, ...response }
  }

  describe('admin questions', () => {
    it('stores a picture on the question and on an option and answers them as {url, width, height}', async () => {
      const headers = await asAdmin()
      const created = await newQuestion(
        headers,
        withPictures(dataUrl(await png(2000, 1000)), dataUrl(await png(40, 30))),
      )
      expect(created.status).toBe(201)
      expect(created.body.image).toEqual({
        svg: null,
        picture: { url: expect.stringMatching(PICTURE_URL_PATTERN), width: 1600, height: 800 },
        caption: { en: 'A map', ne: '', html: null },
      })
      expect(created.body.options[0].image).toEqual({
        svg: null,
        picture: { url: expect.stringMatching(PICTURE_URL_PATTERN), width: 40, height: 30 },
        caption: NO_CAPTION,
      })
      expect(created.body.options[1].image).toBeNull()

      const stored = await sharp(await storedData(created.body.image.picture.url)).metadata()
      expect(stored).toMatchObject({ format: 'webp', width: 1600, height: 800 })
      expect(await storedPictures()).toHaveLength(2)

      const quiz = await send(headers, 'GET', `/api/admin/quizzes/${created.quizId}/`)
      expect(quiz.body.questions.at(-1)).toEqual(created.body)
    })

    it('stores WebP without metadata, transparency kept and an animated GIF as its first frame', async () => {
      const headers = await asAdmin()
      const created = await newQuestion(
        headers,
        questionBody({
          image: { picture: dataUrl(await jpegWithGps(64, 48), 'image/jpeg') },
          options: [
            { text: { en: 'a' }, is_correct: true, image: { picture: dataUrl(await png(20, 20, { alpha: 0.25 })) } },
            { text: { en: 'b' }, image: { picture: dataUrl(await animatedGif(30, 20), 'image/gif') } },
          ],
        }),
      )
      expect(created.status).toBe(201)
      const [photo, translucent, gif] = await Promise.all(
        [created.body.image, ...created.body.options.map((option: { image: unknown }) => option.image)].map(
          async (image: { picture: { url: string } }) => storedData(image.picture.url),
        ),
      )
      const photoMetadata = await sharp(photo!).metadata()
      expect(photoMetadata).toMatchObject({ format: 'webp', width: 64, height: 48 })
      expect(photoMetadata.exif).toBeUndefined()
      expect(photo!.includes('PhoneMaker')).toBe(false)
      expect((await sharp(translucent!).metadata()).hasAlpha).toBe(true)
      expect((await sharp(gif!).metadata()).pages).toBeUndefined()
      expect(created.body.options[1].image.picture).toMatchObject({ width: 30, height: 20 })
    })

    it('stores the same picture once, with one url, in one question or two', async () => {
      const headers = await asAdmin()
      const picture = dataUrl(await png(50, 50))
      const first = await newQuestion(headers, withPictures(picture, picture))
      const second = await newQuestion(headers, withPictures(picture))
      expect(first.status).toBe(201)
      expect(second.status).toBe(201)
      const url = first.body.image.picture.url
      expect(first.body.options[0].image.picture.url).toBe(url)
      expect(second.body.image.picture.url).toBe(url)
      expect(await storedPictures()).toHaveLength(1)
    })

    it('keeps a stored picture sent back as a lossless PNG of it (downloaded, exported), not a second encoding', async () => {
      const headers = await asAdmin()
      const first = await newQuestion(headers, withPictures(dataUrl(await noisyJpeg(300, 200))))
      const url = first.body.image.picture.url
      const png = await sharp(await storedData(url))
        .png()
        .toBuffer()
      const again = await newQuestion(headers, withPictures(dataUrl(png)))
      expect(again.status).toBe(201)
      expect(again.body.image.picture).toEqual(first.body.image.picture)
      expect(await storedPictures()).toHaveLength(1)
      // A picture changed in the least is a new one.
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
      data[0] = data[0]! ^ 1
      const changed = await sharp(data, { raw: info }).png().toBuffer()
      const other = await newQuestion(headers, withPictures(dataUrl(changed)))
      expect(other.body.image.picture.url).not.toBe(url)
      expect(await storedPictures()).toHaveLength(2)
    })

    it('accepts a stored picture by its url, with the stored width and height whatever is sent', async () => {
      const headers = await asAdmin()
      const first = await newQuestion(headers, withPictures(dataUrl(await png(120, 80))))
      const { url } = first.body.image.picture
      const second = await newQuestion(headers, withPictures({ url, width: 1, height: 9999 }, { url }))
      expect(second.status).toBe(201)
      expect(second.body.image.picture).toEqual({ url, width: 120, height: 80 })
      expect(second.body.options[0].image.picture).toEqual({ url, width: 120, height: 80 })
      expect(await storedPictures()).toHaveLength(1)
    })

    it('writes a new revision when a question is edited to another picture, and keeps the old one for it', async () => {
      const headers = await asAdmin()
      const created = await newQuestion(headers, withPictures(dataUrl(await png(60, 40))))
      const questionUrl = `/api/admin/quizzes/${created.quizId}/questions/${created.body.id}/`
      const replaced = await send(
        headers,
        'PUT',
        questionUrl,
        withPictures(dataUrl(await png(60, 40, { colour: '#00ff00' }))),
      )
      expect(replaced.status).toBe(200)
      expect(replaced.body.revision_id).not.toBe(created.body.revision_id)
      expect(replaced.body.image.picture.url).not.toBe(created.body.image.picture.url)
      expect(await revisionsOf(created.body.id)).toBe(2)
      expect(await storedPictures()).toHaveLength(2)

      const kept = await send(headers, 'PUT', questionUrl, withPictures({ url: replaced.body.image.picture.url }))
      expect(kept.status).toBe(200)
      expect(kept.body.image).toEqual(replaced.body.image)
    })
  })

  describe('bank questions', () => {
    it('creates, reads and edits a bank question with pictures', async () => {
      const headers = await asAdmin()
      const created = await send(
        headers,
        'POST',
        '/api/admin/bank/questions/',
        withPictures(dataUrl(await png(1700, 1700)), dataUrl(await png(10, 20)), { tags: ['maps'] }),
      )
      expect(created.status).toBe(201)
      expect(created.body.image.picture).toMatchObject({ width: 1600, height: 1600 })
      expect(created.body.options[0].image.picture).toMatchObject({ width: 10, height: 20 })
      const read = await send(headers, 'GET', `/api/admin/bank/questions/${created.body.id}/`)
      expect(read.body).toEqual(created.body)

      const edited = await send(
        headers,
        'PUT',
        `/api/admin/bank/questions/${created.body.id}/`,
        withPictures({ url: created.body.image.picture.url }, dataUrl(await png(10, 20, { colour: '#0000ff' }))),
      )
      expect(edited.status).toBe(200)
      expect(edited.body.image.picture).toEqual(created.body.image.picture)
      expect(edited.body.options[0].image.picture.url).not.toBe(created.body.options[0].image.picture.url)
      expect(edited.body.revision_id).not.toBe(created.body.revision_id)
      expect(await storedPictures()).toHaveLength(3)
    })

    it('refuses a bad picture at its path and stores nothing', async () => {
      const headers = await asAdmin()
      const refused = await send(
        headers,
        'POST',
        '/api/admin/bank/questions/',
        withPictures(dataUrl(await png(20, 20)), dataUrl(Buffer.from('plain text'))),
      )
      expect(refused.status).toBe(400)
      expect(refused.body.errors).toEqual({ 'options.0.image.picture': [pictureMessages.notAPicture] })
      expect(await storedPictures()).toHaveLength(0)
    })
  })

  describe('create-from-JSON', () => {
    it('stores pictures of questions and options; the admin GET sent back as it is keeps them', async () => {
      const headers = await asAdmin()
      const map = dataUrl(await png(800, 600))
      const created = await send(headers, 'POST', '/api/quizzes/create-from-json/', {
        title: { en: 'Maps' },
        questions: [withPictures(map, dataUrl(await png(16, 16))), withPictures(map)],
      })
      expect(created.status).toBe(201)
      const quiz = await send(headers, 'GET', `/api/admin/quizzes/${created.body.quiz_id}/`)
      const [first, second] = quiz.body.questions
      expect(first.image).toEqual({
        svg: null,
        picture: { url: expect.stringMatching(PICTURE_URL_PATTERN), width: 800, height: 600 },
        caption: { en: 'A map', ne: '', html: null },
      })
      expect(second.image).toEqual(first.image)
      expect(first.options[0].image.picture).toMatchObject({ width: 16, height: 16 })
      expect(await storedPictures()).toHaveLength(2)

      const copy = await send(headers, 'POST', '/api/quizzes/create-from-json/', {
        title: { en: 'Maps again' },
        questions: quiz.body.questions,
      })
      expect(copy.status).toBe(201)
      const copied = await send(headers, 'GET', `/api/admin/quizzes/${copy.body.quiz_id}/`)
      expect(copied.body.questions.map((q: { image: unknown }) => q.image)).toEqual([first.image, second.image])
      expect(copied.body.questions[0].options[0].image).toEqual(first.options[0].image)
      expect(await storedPictures()).toHaveLength(2)
    })

    it('refuses a bad picture at its path in the quiz, with the body’s other problems, storing nothing', async () => {
      const headers = await asAdmin()
      const refused = await send(headers, 'POST', '/api/quizzes/create-from-json/', {
        title: { en: '' },
        questions: [
          withPictures(dataUrl(await png(20, 20))),
          withPictures(dataUrl(await png(20, 20)), 'data:;base64,!!'),
        ],
      })
      expect(refused.status).toBe(400)
      expect(refused.body.errors).toMatchObject({
        'questions.1.options.0.image.picture': [pictureMessages.notAPicture],
      })
      expect(Object.keys(refused.body.errors)).toContain('title.en')
      expect(await storedPictures()).toHaveLength(0)
      expect(await t.db.selectFrom('quizzes').select('id').execute()).toHaveLength(0)
    })
  })

  describe('refusals', () => {
    const cases: [string, () => Promise<unknown>, number, string, string][] = [
      [
        'a text file sent as a PNG',
        async () => withPictures(dataUrl(Buffer.from('Dear admin, this is a letter.'))),
        400,
        'image.picture',
        pictureMessages.notAPicture,
      ],
      [
        'a truncated JPEG',
        async () => {
          const jpeg = await noisyJpeg(200, 150)
          return withPictures(dataUrl(await png(8, 8)), dataUrl(jpeg.subarray(0, jpeg.length >> 1), 'image/jpeg'))
        },
        400,
        'options.0.image.picture',
        pictureMessages.notAPicture,
      ],
      [
        'a decompression bomb: a small PNG of 10,000 x 10,000 pixels',
        async () => withPictures(dataUrl(hugeCanvasPng(10_000, 10_000))),
        413,
        'image.picture',
        pictureMessages.tooManyPixels,
      ],
      [
        'a PNG whose header claims 60,000 x 60,000',
        async () => withPictures(dataUrl(await pngDeclaring(60_000, 60_000))),
        413,
        'image.picture',
        pictureMessages.tooManyPixels,
      ],
      [
        'a 60-megapixel PNG',
        async () => withPictures(dataUrl(hugeCanvasPng(10_000, 6_000))),
        413,
        'image.picture',
        pictureMessages.tooManyPixels,
      ],
      [
        'over 5 MB decoded',
        async () => withPictures(dataUrl(Buffer.alloc(pictureLimits.bytes + 1024, 1))),
        413,
        'image.picture',
        pictureMessages.tooLarge,
      ],
      [
        'a url the bank does not hold',
        async () => withPictures({ url: `/api/pictures/${'ab'.repeat(32)}.webp` }),
        400,
        'image.picture',
        pictureMessages.unknown,
      ],
      [
        'a url that is not a picture address',
        async () => withPictures({ url: 'https://example.org/map.png' }),
        400,
        'image.picture',
        pictureMessages.unknown,
      ],
      [
        'a link instead of a data URL',
        async () => withPictures('https://example.org/map.png'),
        400,
        'image.picture',
        pictureMessages.notAPicture,
      ],
      [
        'malformed base64',
        async () => withPictures('data:image/png;base64,iVBOR*w0KGgo=='),
        400,
        'image.picture',
        pictureMessages.notAPicture,
      ],
      [
        'both an SVG and a picture',
        async () => questionBody({ image: { svg: TRIANGLE_SVG, picture: dataUrl(await png(8, 8)) } }),
        400,
        'image.picture',
        pictureMessages.svgAndPicture,
      ],
      [
        'neither an SVG nor a picture',
        async () => questionBody({ image: { caption: { en: 'A map' } } }),
        400,
        'image.svg',
        adminMessages.required,
      ],
    ]

    it.each(cases)('refuses %s at its path, storing nothing', async (_name, body, status, path, message) => {
      const headers = await asAdmin()
      const { quiz } = await createQuiz(t.database, {}, { questionCount: 1 })
      const response = await send(headers, 'POST', `/api/admin/quizzes/${quiz.id}/questions/`, await body())
      expect(response.status).toBe(status)
      expect(response.body).toMatchObject({
        code: status === 413 ? 'payload_too_large' : 'validation_error',
        errors: { [path]: [message] },
      })
      expect(await storedPictures()).toHaveLength(0)
      expect(await revisionsOf((await t.db.selectFrom('questions').select('id').execute())[0]!.id)).toBe(1)
      expect((await t.db.selectFrom('questions').select('id').execute()).length).toBe(1)
    })

    it('stores no picture of a body refused for another field', async () => {
      const headers = await asAdmin()
      const { quiz } = await createQuiz(t.database, {}, { questionCount: 1 })
      const noRightAnswer = withPictures(dataUrl(await png(30, 30)), dataUrl(await png(31, 31)), {
        options: [
          { ...twoOptions[0], is_correct: false, image: { picture: dataUrl(await png(31, 31)) } },
          twoOptions[1],
        ],
      })
      const response = await send(headers, 'POST', `/api/admin/quizzes/${quiz.id}/questions/`, noRightAnswer)
      expect(response.status).toBe(400)
      expect(response.body.errors).toEqual({ options: [adminMessages.exactlyOneCorrect] })
      expect(await storedPictures()).toHaveLength(0)
    })
  })
})

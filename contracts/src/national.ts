import { z } from 'zod'
import { adminInput, adminLimits, adminMessages, LiveInputSchema } from './admin'
import { SectionsBodySchema } from './papers'

// API.md "Institutes: many on one deployment", National mocks (docs/decisions/102).

/** Texts of the national mocks' refusals, in both languages (the server sends `en`). */
export const nationalMessages = {
  locked: {
    en: "A national mock's copy cannot be changed by an institute.",
    ne: 'राष्ट्रिय मकको प्रतिलिपि संस्थाले परिवर्तन गर्न सक्दैन।',
  },
  started: {
    en: 'This national mock has already started.',
    ne: 'यो राष्ट्रिय मक सुरु भइसकेको छ।',
  },
  unknownQuestion: {
    en: "No question of the platform's bank has this id.",
    ne: 'प्लेटफर्मको प्रश्न बैंकमा यो id को प्रश्न छैन।',
  },
  drawNotAllowed: {
    en: "A national mock's paper names its questions; draws are not offered.",
    ne: 'राष्ट्रिय मकको पत्रमा प्रश्नहरू तोकिन्छन्; ड्र दिइँदैन।',
  },
} as const

/** `POST /api/platform/national-mocks/`. */
export const NationalMockCreateSchema = z.object({
  title: adminInput.bilingual(adminLimits.titleLength),
  duration_minutes: z
    .number(adminInput.required)
    .int(adminMessages.duration)
    .min(adminLimits.durationMinutes.min, adminMessages.duration)
    .max(adminLimits.durationMinutes.max, adminMessages.duration),
  live: LiveInputSchema.unwrap(),
  sections: SectionsBodySchema.shape.sections,
})
export type NationalMockCreate = z.input<typeof NationalMockCreateSchema>

export const NationalMockIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) })

const nationalMockBase = {
  id: z.number().int(),
  title: z.object({ en: z.string(), ne: z.string() }),
  duration_minutes: z.number().int(),
  live: z.object({ starts_at: z.string(), join_minutes: z.number().int(), ends_at: z.string() }),
  question_count: z.number().int(),
}

/** The platform's view: with the institutes taking part. */
export const PlatformNationalMockSchema = z.object({
  ...nationalMockBase,
  institutes: z.array(
    z.object({ id: z.number().int(), slug: z.string(), name: z.string(), quiz_id: z.number().int() }),
  ),
})
export type PlatformNationalMock = z.infer<typeof PlatformNationalMockSchema>
export const PlatformNationalMockListSchema = z.object({ items: z.array(PlatformNationalMockSchema) })

/** An institute admin's view: whether the institute takes part, and its quiz when it does. */
export const AdminNationalMockSchema = z.object({
  ...nationalMockBase,
  taking_part: z.boolean(),
  quiz_id: z.number().int().nullable(),
})
export type AdminNationalMock = z.infer<typeof AdminNationalMockSchema>
export const AdminNationalMockListSchema = z.object({ items: z.array(AdminNationalMockSchema) })

/** A learner's view: those the institute takes part in, each with the institute's quiz to open. */
export const NationalMockSchema = z.object({ ...nationalMockBase, quiz_id: z.number().int() })
export type NationalMock = z.infer<typeof NationalMockSchema>
export const NationalMockListSchema = z.object({ items: z.array(NationalMockSchema) })

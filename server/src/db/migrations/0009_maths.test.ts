import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openEmptyDatabase } from '../../../test/migration-database'
import { richTextsOf } from '../../questions/question-revisions.repository'
import { migrateToLatest, migrateUpTo } from '../migrate'

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"/>'

// A database an older server left, whose texts were never maths but some of which hold TeX pasted from elsewhere, and
// some a lone $ (a price). After the upgrade the TeX is rendered beside its source; the rest is shown as before.
describe.each(dialects)('migration 0009_maths on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('renders the old texts that hold TeX, and leaves a lone $ and bad TeX as they were, without html', async () => {
    const opened = await openEmptyDatabase(dialect)
    drop = opened.drop
    const { database } = opened
    const { db } = database
    await migrateUpTo(database, '0008_option_ids_apart_from_order')

    const now = Date.now()
    const quiz = await db
      .insertInto('quizzes')
      .values({
        title_en: 'Old quiz',
        title_ne: '',
        start_time: now,
        end_time: null,
        duration_minutes: 10,
        is_paid_tier: 0,
        allowed_attempts: 3,
        difficulty: 'easy',
        created_at: now,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const texts = [
      {
        text: ['Half is $\\frac{1}{2}$', '$x^2$ को मान'],
        hint: ['Use $\\ce{H2O}$', ''],
        caption: ['$\\pi r^2$', 'वृत्त'],
      },
      { text: ['It costs $5', ''], hint: [null, ''], caption: ['', ''] },
      { text: ['Broken $\\frac{1}$ TeX', 'ठीक $y$'], hint: ['Plain hint', ''], caption: ['', ''] },
      { text: ['No maths at all', 'गणित छैन'], hint: [null, ''], caption: ['', ''] },
    ] as const
    const revisionIds: number[] = []
    for (const [n, row] of texts.entries()) {
      const question = await db
        .insertInto('questions')
        // @ts-expect-error quiz_id and position are the columns of the time before migration 0010
        .values({ quiz_id: quiz.id, position: n + 1, revision_id: null, deleted_at: null })
        .returning('id')
        .executeTakeFirstOrThrow()
      const revision = await db
        .insertInto('question_revisions')
        .values({
          question_id: question.id,
          text_en: row.text[0],
          text_ne: row.text[1],
          hint_en: row.hint[0],
          hint_ne: row.hint[1],
          topic: '',
          image_svg: n === 0 ? SVG : null,
          image_caption_en: row.caption[0],
          image_caption_ne: row.caption[1],
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      revisionIds.push(revision.id)
      await db
        .insertInto('question_options')
        .values(
          ['$\\sqrt{2}$', '$10 note', 'Plain'].map((text, i) => ({
            revision_id: revision.id,
            position: i + 1,
            text_en: `${text}`,
            text_ne: '',
            is_correct: i === 0 ? 1 : 0,
            image_svg: i === 2 ? SVG : null,
            image_caption_en: i === 2 ? '$\\ce{NaCl}$' : '',
            image_caption_ne: '',
          })),
        )
        .execute()
    }

    await migrateToLatest(database)

    const revisions = await db.selectFrom('question_revisions').selectAll().orderBy('id').execute()
    const [tex, price, broken, plain] = revisions.map((revision) => richTextsOf(revision, 'learner'))
    expect(tex!.text).toEqual({
      en: 'Half is 1/2',
      ne: 'x² को मान',
      html: { en: expect.stringContaining('<mfrac>'), ne: expect.stringContaining('<msup>') },
    })
    expect(tex!.hint).toMatchObject({ en: 'Use H₂O', ne: '', html: { ne: '' } })
    expect(tex!.caption).toMatchObject({ en: 'πr²', ne: 'वृत्त', html: { ne: 'वृत्त' } })
    // Never maths: shown exactly as before, the source untouched.
    expect(price!.text).toEqual({ en: 'It costs $5', ne: '', html: null })
    expect(revisions[1]!.maths).toBeNull()
    // A field whose TeX does not parse keeps no html; the other fields of the row are rendered.
    expect(broken!.text).toEqual({ en: 'Broken $\\frac{1}$ TeX', ne: 'ठीक $y$', html: null })
    expect(revisions[2]!.maths).toBeNull()
    expect(plain!.text).toEqual({ en: 'No maths at all', ne: 'गणित छैन', html: null })
    expect(revisions[3]!.maths).toBeNull()
    expect(revisions.map((revision) => revision.id)).toEqual(revisionIds)

    const options = await db
      .selectFrom('question_options')
      .selectAll()
      .orderBy('revision_id')
      .orderBy('position')
      .execute()
    expect(options).toHaveLength(12)
    for (const [i, option] of options.entries()) {
      const shown = richTextsOf(option, 'learner')
      if (i % 3 === 0) expect(shown.text).toMatchObject({ en: '√2', html: { en: expect.stringContaining('<msqrt>') } })
      if (i % 3 === 1) expect(shown.text).toEqual({ en: '$10 note', ne: '', html: null })
      if (i % 3 === 2) {
        expect(shown.text).toEqual({ en: 'Plain', ne: '', html: null })
        expect(shown.caption).toMatchObject({ en: 'NaCl', html: { en: expect.stringContaining('<math') } })
      }
    }
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openEmptyDatabase } from '../../../test/migration-database'
import { modelAnswerOf, richTextsOf, toRevisionValues } from '../../questions/question-revisions.repository'
import { migrateToLatest, migrateUpTo } from '../migrate'

// Issue 73: model answers written before they were rendered get their html once, beside the revision's other texts.
describe.each(dialects)('migration 0038_model_answer_maths on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it("renders old model answers' tables and maths, keeps the other texts' html, and leaves a lone $ alone", async () => {
    const opened = await openEmptyDatabase(dialect)
    drop = opened.drop
    const { db } = opened.database
    await migrateUpTo(opened.database, '0037_booklet_answer_images')

    const question = await db
      .insertInto('questions')
      .values({ revision_id: null, deleted_at: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    const content = { text: { en: 'Area is $\\pi r^2$', ne: '' }, hint: null, topic: 'Maths', image: null, options: [] }
    // The columns as they were at 0037: today's numeric ones came with 0056.
    const { numeric_answer: _answer, decimals: _decimals, ...columns } = toRevisionValues(question.id, content, 1)
    const written = (en: string, ne: string) => ({
      ...columns,
      type: 'written' as const,
      marks: 1000,
      model_answer_en: en,
      model_answer_ne: ne,
    })
    const rows = await db
      .insertInto('question_revisions')
      .values([
        written('| Year | Exports |\n|---|---:|\n| 2079 | $x^2$ |', 'उत्तर $x^2$'),
        written('It costs $5', ''),
        written('No maths', 'गणित छैन'),
      ])
      .returning('id')
      .execute()
    const ids = rows.map((row) => row.id).sort((a, b) => a - b)

    await migrateToLatest(opened.database)
    const after = await db.selectFrom('question_revisions').selectAll().orderBy('id').execute()
    expect(after.map((row) => row.id)).toEqual(ids)
    const [rendered, price, plain] = after.map((row) => modelAnswerOf(row, 'learner'))
    expect(rendered!.html!.en).toContain('<table')
    expect(rendered!.html!.en).toContain('<math')
    expect(rendered!.html!.ne).toContain('<math')
    expect(rendered!.ne).toBe('उत्तर x²')
    expect(price).toEqual({ en: 'It costs $5', ne: '', html: null })
    expect(plain).toEqual({ en: 'No maths', ne: 'गणित छैन', html: null })
    // The question text's html, rendered when written, is kept.
    for (const row of after) expect(richTextsOf(row, 'admin').text.html!.en).toContain('<math')
  })
})

import { randomInt } from 'node:crypto'
import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// docs/decisions/023: every option gets a new id, random within its revision, and whatever holds option ids follows.
const BATCH = 500

export const optionIdsApartFromOrder = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const options = (
      await sql<{ id: number; revision_id: number }>`
      select id, revision_id from question_options order by revision_id, id`.execute(db)
    ).rows
    if (options.length === 0) return
    const base = Math.max(...options.map((option) => Number(option.id)))
    const byRevision = new Map<number, number[]>()
    for (const { id, revision_id } of options) {
      const ids = byRevision.get(Number(revision_id)) ?? []
      ids.push(Number(id))
      byRevision.set(Number(revision_id), ids)
    }
    const newId = new Map<number, number>()
    let next = base
    for (const ids of byRevision.values()) {
      const order = [...ids]
      for (let i = order.length - 1; i > 0; i--) {
        const j = randomInt(i + 1)
        ;[order[i], order[j]] = [order[j]!, order[i]!]
      }
      for (const id of order) newId.set(id, ++next)
    }

    await db.schema
      .createTable('option_id_map')
      .addColumn('old_id', 'integer', (c) => c.primaryKey())
      .addColumn('new_id', 'integer', (c) => c.notNull())
      .execute()
    const pairs = [...newId]
    for (let start = 0; start < pairs.length; start += BATCH) {
      const values = pairs.slice(start, start + BATCH).map(([oldId, id]) => sql`(${oldId}, ${id})`)
      await sql`insert into option_id_map (old_id, new_id) values ${sql.join(values)}`.execute(db)
    }
    const columns = 'revision_id, position, text_en, text_ne, is_correct, image_svg, image_caption_en, image_caption_ne'
    await sql
      .raw(
        `insert into question_options (id, ${columns})
         select m.new_id, ${columns.replace(/(\w+)/g, 'o.$1')}
         from question_options o join option_id_map m on m.old_id = o.id`,
      )
      .execute(db)
    await sql`
      update attempt_answers set option_id = (select new_id from option_id_map where old_id = attempt_answers.option_id)
      where option_id in (select old_id from option_id_map)`.execute(db)

    const orders = (
      await sql<{ id: number; option_order: string }>`
      select id, option_order from attempts where option_order is not null`.execute(db)
    ).rows
    for (const { id, option_order } of orders) {
      const rekeyed = (JSON.parse(option_order) as number[][]).map((ids) => ids.map((old) => newId.get(old) ?? old))
      await sql`update attempts set option_order = ${JSON.stringify(rekeyed)} where id = ${id}`.execute(db)
    }

    await sql`delete from question_options where id in (select old_id from option_id_map)`.execute(db)
    await db.schema.dropTable('option_id_map').execute()
    // SQLite's AUTOINCREMENT counter moved up with the inserted ids by itself; PostgreSQL's sequence does not.
    if (dialect === 'postgres')
      await sql`select setval(pg_get_serial_sequence('question_options', 'id'), ${next})`.execute(db)
  },
})

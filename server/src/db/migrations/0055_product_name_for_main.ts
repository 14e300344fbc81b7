import { sql, type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 75: every screen now carries its institute's name. Institute `main`, which 0040 made for every deployment
// from before institutes, was named "Quiz platform", a placeholder no screen showed; while nobody has renamed it,
// it takes the product's name in both languages and the app's blue, so a deployment of one institute looks as it did.
export const productNameForMain = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await sql`update institutes set name_en = 'Quiz Practice', name_ne = 'क्विज अभ्यास'
      where id = 1 and name_en = 'Quiz platform' and name_ne = ''`.execute(db)
    // And the app's own blue, which every screen's contrast was checked in, for 0040's default colour.
    await sql`update institutes set colour = '#1d4ed8' where id = 1 and colour = '#1f6feb'`.execute(db)
  },
  async down(db: Kysely<unknown>) {
    await sql`update institutes set name_en = 'Quiz platform', name_ne = ''
      where id = 1 and name_en = 'Quiz Practice' and name_ne = 'क्विज अभ्यास'`.execute(db)
  },
})

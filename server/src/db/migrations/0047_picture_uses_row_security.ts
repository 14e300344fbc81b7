import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../database'
import { holdToInstitute } from './0041_row_security'

// Frozen in time: change the schema with a new migration, never by editing this one.
// picture_uses (0044, decision 100) is institute-owned: PostgreSQL's row security holds it as every other (098).
export const pictureUsesRowSecurity = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect === 'postgres') await holdToInstitute(db, 'picture_uses')
  },
})

import { currentInstitute } from './request-scope'
import { FIRST_INSTITUTE_ID } from './tenancy'

/**
 * The `institute_id` an INSERT written as raw SQL names (the tenant filter rewrites only built queries): the scope's
 * institute, or with none the column's default, the first institute (a lone deployment). Decision 100.
 */
export const instituteOfRawInsert = (): number => currentInstitute() ?? FIRST_INSTITUTE_ID

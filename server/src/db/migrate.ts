import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely'
import type { Database, Dialect } from './database'
import { initial } from './migrations/0001_initial'
import { examFeel } from './migrations/0002_exam_feel'
import { payments } from './migrations/0003_payments'
import { practice } from './migrations/0004_practice'
import { institutions } from './migrations/0005_institutions'
import { auditAndLogins } from './migrations/0006_audit_and_logins'
import { questionCount } from './migrations/0007_question_count'
import { optionIdsApartFromOrder } from './migrations/0008_option_ids_apart_from_order'
import { maths } from './migrations/0009_maths'
import { questionBankAndPapers } from './migrations/0010_question_bank_and_papers'
import { imports } from './migrations/0011_imports'
import { notifications } from './migrations/0012_notifications'
import { keyChallenges } from './migrations/0013_key_challenges'
import { liveMocks } from './migrations/0014_live_mocks'
import { paperSetShows } from './migrations/0015_paper_set_shows'
import { pushTimeouts } from './migrations/0016_push_timeouts'
import { quizDrafts } from './migrations/0017_quiz_drafts'
import { pictures } from './migrations/0018_pictures'
import { paperSittings } from './migrations/0019_paper_sittings'
import { scanPhotos } from './migrations/0020_scan_photos'
import { pictureNames } from './migrations/0021_picture_names'
import { outcomes } from './migrations/0022_outcomes'
import { writtenAnswers } from './migrations/0025_written_answers'
import { uploadGrace } from './migrations/0027_upload_grace'
import { markers } from './migrations/0028_markers'
import { livePaperKeys } from './migrations/0029_live_paper_keys'
import { announcementChunks } from './migrations/0030_announcement_chunks'
import { regradeRequests } from './migrations/0031_regrade_requests'
import { drawType } from './migrations/0032_draw_type'
import { bookletPages } from './migrations/0033_booklet_pages'
import { pageRenditions } from './migrations/0034_page_renditions'
import { owedPracticeCards } from './migrations/0035_owed_practice_cards'
import { answersClustered } from './migrations/0036_answers_clustered'
import { bookletAnswerImages } from './migrations/0037_booklet_answer_images'
import { modelAnswerMaths } from './migrations/0038_model_answer_maths'
import { institutesMigration } from './migrations/0040_institutes'
import { rolesInMemberships } from './migrations/0042_roles_in_memberships'
import { institutePaymentKeys } from './migrations/0043_institute_payment_keys'
import { perInstituteKeys } from './migrations/0044_per_institute_keys'
import { platformAudit } from './migrations/0045_platform_audit'
import { platformBank } from './migrations/0046_platform_bank'
import { rowSecurity } from './migrations/0048_row_security'
import { paidAccessPerInstitute } from './migrations/0049_paid_access_per_institute'
import { nationalMocks } from './migrations/0050_national_mocks'
import { instituteIndexes } from './migrations/0051_institute_indexes'
import { filesInAStore } from './migrations/0052_files_in_a_store'
import { productNameForMain } from './migrations/0055_product_name_for_main'
import { questionTypes } from './migrations/0056_question_types'
import { answerValues } from './migrations/0057_answer_values'
import { dailySets } from './migrations/0060_daily_sets'
import { blindLearners } from './migrations/0066_blind_learners'
import { passages } from './migrations/0070_passages'
import { institutesWithWork } from './migrations/0076_institutes_with_work'
import { passagesVersion } from './migrations/0078_passages_version'
import { typedChallenges } from './migrations/0079_typed_challenges'
import { paperFiguresPerStatement } from './migrations/0080_paper_figures_per_statement'
import { tallyShards } from './migrations/0081_tally_shards'

// Listed, not scanned, so the bundle carries them; a released migration is never edited, a new one follows it.
const migrations = (dialect: Dialect): Record<string, Migration> => ({
  '0001_initial': initial(dialect),
  '0002_exam_feel': examFeel(dialect),
  '0003_payments': payments(dialect),
  '0004_practice': practice(dialect),
  '0005_institutions': institutions(dialect),
  '0006_audit_and_logins': auditAndLogins(dialect),
  '0007_question_count': questionCount(dialect),
  '0008_option_ids_apart_from_order': optionIdsApartFromOrder(dialect),
  '0009_maths': maths(dialect),
  '0010_question_bank_and_papers': questionBankAndPapers(dialect),
  '0011_imports': imports(dialect),
  '0012_notifications': notifications(dialect),
  '0013_key_challenges': keyChallenges(dialect),
  '0014_live_mocks': liveMocks(dialect),
  '0015_paper_set_shows': paperSetShows(dialect),
  '0016_push_timeouts': pushTimeouts(),
  '0017_quiz_drafts': quizDrafts(),
  '0018_pictures': pictures(dialect),
  '0019_paper_sittings': paperSittings(dialect),
  '0020_scan_photos': scanPhotos(dialect),
  '0021_picture_names': pictureNames(),
  '0022_outcomes': outcomes(),
  '0025_written_answers': writtenAnswers(dialect),
  '0027_upload_grace': uploadGrace(),
  '0028_markers': markers(),
  '0029_live_paper_keys': livePaperKeys(),
  '0030_announcement_chunks': announcementChunks(),
  '0031_regrade_requests': regradeRequests(dialect),
  '0032_draw_type': drawType(),
  '0033_booklet_pages': bookletPages(dialect),
  '0034_page_renditions': pageRenditions(dialect),
  '0035_owed_practice_cards': owedPracticeCards(dialect),
  '0036_answers_clustered': answersClustered(dialect),
  '0037_booklet_answer_images': bookletAnswerImages(),
  '0038_model_answer_maths': modelAnswerMaths(),
  '0040_institutes': institutesMigration(dialect),
  '0042_roles_in_memberships': rolesInMemberships(),
  '0043_institute_payment_keys': institutePaymentKeys(),
  '0044_per_institute_keys': perInstituteKeys(dialect),
  '0045_platform_audit': platformAudit(dialect),
  '0046_platform_bank': platformBank(),
  '0048_row_security': rowSecurity(dialect),
  '0049_paid_access_per_institute': paidAccessPerInstitute(),
  '0050_national_mocks': nationalMocks(dialect),
  '0051_institute_indexes': instituteIndexes(),
  '0052_files_in_a_store': filesInAStore(),
  '0055_product_name_for_main': productNameForMain(),
  '0056_question_types': questionTypes(),
  '0057_answer_values': answerValues(),
  '0060_daily_sets': dailySets(dialect),
  '0066_blind_learners': blindLearners(),
  '0070_passages': passages(dialect),
  '0076_institutes_with_work': institutesWithWork(dialect),
  '0078_passages_version': passagesVersion(),
  '0079_typed_challenges': typedChallenges(),
  '0080_paper_figures_per_statement': paperFiguresPerStatement(dialect),
  '0081_tally_shards': tallyShards(dialect),
})

/** The migrations this build knows, oldest first: a backup that applied others was made by a newer server. */
export const knownMigrationNames: readonly string[] = Object.keys(migrations('sqlite'))

export async function migrateToLatest(database: Database): Promise<void> {
  await migrate(database, (migrator) => migrator.migrateToLatest())
}

/** Applies the migrations up to and including `name`: the migrations' tests build the database an older server left. */
export async function migrateUpTo(database: Database, name: string): Promise<void> {
  await migrate(database, (migrator) => migrator.migrateTo(name))
}

async function migrate({ db, dialect }: Database, run: (migrator: Migrator) => Promise<MigrationResultSet>) {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) }
  const { error, results } = await run(new Migrator({ db, provider }))
  const failed = results?.find((result) => result.status === 'Error')
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error })
  }
}

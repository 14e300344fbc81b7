import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

export const initial = (dialect: Dialect): Migration => {
  const { id, pk, blob } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', id, pk)
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('username_key', 'text', (c) => c.notNull().unique())
        .addColumn('phone_number', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('has_paid_access', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('full_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('preferred_language', 'text', (c) => c.notNull().defaultTo('en'))
        .addColumn('profile_picture_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('profile_pictures')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('data', blob, (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('profile_pictures_user').on('profile_pictures').column('user_id').execute()

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('jti', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('family_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('rotated_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute()
      await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute()
      await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').column('user_id').execute()

      await db.schema
        .createTable('otp_codes')
        .addColumn('phone_number', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('failed_tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('consumed_at', 'bigint')
        .addPrimaryKeyConstraint('otp_codes_pk', ['phone_number', 'purpose'])
        .execute()

      await db.schema
        .createTable('phone_verifications')
        .addColumn('phone_number', 'text', (c) => c.primaryKey())
        .addColumn('verified_until', 'bigint', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('rate_limit_counters')
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limit_counters_pk', ['key', 'window_start'])
        .execute()

      await db.schema
        .createTable('quizzes')
        .addColumn('id', id, pk)
        .addColumn('title_en', 'text', (c) => c.notNull())
        .addColumn('title_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('start_time', 'bigint', (c) => c.notNull())
        .addColumn('end_time', 'bigint')
        .addColumn('duration_minutes', 'integer', (c) => c.notNull())
        .addColumn('is_paid_tier', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('allowed_attempts', 'integer', (c) => c.notNull())
        .addColumn('difficulty', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute()

      await db.schema
        .createTable('questions')
        .addColumn('id', id, pk)
        .addColumn('quiz_id', 'integer', (c) => c.notNull().references('quizzes.id'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('revision_id', 'integer')
        .addColumn('deleted_at', 'bigint')
        .execute()
      await db.schema.createIndex('questions_quiz').on('questions').columns(['quiz_id', 'position']).execute()

      await db.schema
        .createTable('question_revisions')
        .addColumn('id', id, pk)
        .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id'))
        .addColumn('text_en', 'text', (c) => c.notNull())
        .addColumn('text_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('hint_en', 'text')
        .addColumn('hint_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('topic', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('image_svg', 'text')
        .addColumn('image_caption_en', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('image_caption_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('question_options')
        .addColumn('id', id, pk)
        .addColumn('revision_id', 'integer', (c) => c.notNull().references('question_revisions.id'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('text_en', 'text', (c) => c.notNull())
        .addColumn('text_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('is_correct', 'integer', (c) => c.notNull())
        .addColumn('image_svg', 'text')
        .addColumn('image_caption_en', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('image_caption_ne', 'text', (c) => c.notNull().defaultTo(''))
        .execute()
      await db.schema
        .createIndex('question_options_revision')
        .on('question_options')
        .columns(['revision_id', 'position'])
        .execute()

      await db.schema
        .createTable('attempts')
        .addColumn('id', id, pk)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('quiz_id', 'integer', (c) => c.notNull().references('quizzes.id'))
        .addColumn('attempt_number', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('deadline', 'bigint', (c) => c.notNull())
        .addColumn('revision_ids', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .addColumn('score_hundredths', 'integer')
        .addColumn('correct', 'integer')
        .addColumn('incorrect', 'integer')
        .addColumn('unanswered', 'integer')
        .addColumn('late', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('submitted', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('attempts_number_unique', ['user_id', 'quiz_id', 'attempt_number'])
        .execute()
      // The database itself guarantees one attempt in progress per learner and quiz, whatever races above it.
      await db.schema
        .createIndex('attempts_one_in_progress')
        .on('attempts')
        .columns(['user_id', 'quiz_id'])
        .unique()
        .where(sql.ref('status'), '=', 'in_progress')
        .execute()
      await db.schema
        .createIndex('attempts_user_quiz')
        .on('attempts')
        .columns(['user_id', 'quiz_id', 'status'])
        .execute()

      await db.schema
        .createTable('attempt_answers')
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('option_id', 'integer')
        .addColumn('saved_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('attempt_answers_pk', ['attempt_id', 'question_id'])
        .execute()
    },
  }
}

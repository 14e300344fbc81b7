import type { DB } from './schema'

/**
 * Whose each table's rows are (docs/decisions/095): an institute's (every row carries `institute_id` and a request
 * reads and writes only its institute's), an account's (the phone's person, across institutes), or the deployment's.
 * A `Record` over every table: a table added to the schema without a place here fails the type check.
 */
export const tableOwners = {
  users: 'account',
  profile_pictures: 'account',
  refresh_tokens: 'account',
  login_sessions: 'account',
  push_subscriptions: 'account',
  memberships: 'account',
  otp_codes: 'deployment',
  phone_verifications: 'deployment',
  rate_limit_counters: 'deployment',
  fake_gateway_transactions: 'deployment',
  institutes: 'deployment',
  // Content-addressed stores, one copy of the same bytes: each is reached through an institute's rows naming it.
  pictures: 'deployment',
  page_images: 'deployment',
  picture_uses: 'institute',
  institute_hosts: 'deployment',
  // Each row names its institute, read by id only; the secret is sealed (docs/decisions/099).
  institute_payment_keys: 'deployment',
  // The platform admins' trail (docs/decisions/097): no institute's, never read on an institute's host.
  platform_audit_events: 'deployment',
  // docs/decisions/102: the platform's national mocks, who takes part, and every institute's entries in one board.
  national_mocks: 'deployment',
  national_takers: 'deployment',
  national_entries: 'deployment',
  institute_invitations: 'institute',
  quizzes: 'institute',
  questions: 'institute',
  tags: 'institute',
  question_tags: 'institute',
  paper_sections: 'institute',
  paper_items: 'institute',
  question_shows: 'institute',
  shown_sets: 'institute',
  shown_set_questions: 'institute',
  set_shows: 'institute',
  question_revisions: 'institute',
  question_options: 'institute',
  attempts: 'institute',
  attempt_answers: 'institute',
  attempt_question_states: 'institute',
  practice_cards: 'institute',
  owed_practice_cards: 'institute',
  first_attempt_scores: 'institute',
  leaderboard_snapshots: 'institute',
  live_paper_keys: 'institute',
  plans: 'institute',
  payments: 'institute',
  audit_events: 'institute',
  imports: 'institute',
  key_versions: 'institute',
  flags: 'institute',
  regrades: 'institute',
  notifications: 'institute',
  live_registrations: 'institute',
  live_announcements: 'institute',
  deliveries: 'institute',
  sittings: 'institute',
  sitting_roster: 'institute',
  sitting_scans: 'institute',
  scan_photos: 'institute',
  rubrics: 'institute',
  rubric_groups: 'institute',
  rubric_items: 'institute',
  written_answers: 'institute',
  written_answer_items: 'institute',
  written_answer_pages: 'institute',
  written_rescores: 'institute',
  regrade_requests: 'institute',
  booklet_pages: 'institute',
  daily_settings: 'institute',
  daily_days: 'institute',
  daily_reminders: 'institute',
  passages: 'institute',
  passage_questions: 'institute',
} as const satisfies Record<keyof DB, 'institute' | 'account' | 'deployment'>

export type InstituteOwnedTable = {
  [T in keyof typeof tableOwners]: (typeof tableOwners)[T] extends 'institute' ? T : never
}[keyof typeof tableOwners]

export const instituteOwnedTables: ReadonlySet<string> = new Set(
  Object.entries(tableOwners)
    .filter(([, owner]) => owner === 'institute')
    .map(([table]) => table),
)

/** The institute every row belonged to before there were institutes (migration 0040), and a lone deployment's. */
export const FIRST_INSTITUTE_ID = 1
/** Its slug: what a token signed before institutes is for. */
export const FIRST_INSTITUTE_SLUG = 'main'

/**
 * The reserved institute whose bank is the platform's (migration 0046, docs/decisions/101): no host, never listed nor
 * counted as an institute; its rows are read and written only in its scope, entered explicitly.
 */
export const PLATFORM_INSTITUTE_ID = 0

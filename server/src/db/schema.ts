import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'

// Conventions shared by SQLite and PostgreSQL: timestamps are epoch milliseconds (bigint), booleans are
// integers 0/1, JSON is text. That keeps one set of queries valid on both databases.

export interface UserTable {
  id: Generated<number>
  username: string
  /** Lower-cased username: the unique key, so names match case-insensitively. */
  username_key: string
  phone_number: string
  password_hash: string
  // Admin and marker are roles in an institute: memberships hold them (docs/decisions/096).
  /** Runs the deployment's institutes from the platform's address, and reads no institute's learners (decision 095). */
  is_platform_admin: Generated<number>
  // Paid access is a membership's: bought from, and granted by, one institute (docs/decisions/103).
  full_name: Generated<string>
  email: Generated<string>
  preferred_language: Generated<string>
  profile_picture_id: string | null
  created_at: number
  /** Extra time on every attempt this learner starts, in percent of the quiz's duration (0..300). */
  extra_time_percent: Generated<number>
  /** 1: live-mock reminders by SMS too. */
  sms_reminders: Generated<number>
  /** `HH:MM` Nepal time for the daily set's reminder; null for none (docs/decisions/110). */
  daily_reminder: Generated<string | null>
  /** 0: leaderboards show "Learner" instead of the name. */
  show_on_leaderboards: Generated<number>
  /** 1: the learner uses a screen reader; their papers leave out `needs_sight` questions (decision 114). */
  screen_reader: Generated<number>
}

export interface ProfilePictureTable {
  /** Random, unguessable: the picture's URL is public so an <img> can load it without a token. */
  id: string
  user_id: number
  content_type: string
  /** Empty once `data_key` names the file in the file store (docs/decisions/105). */
  data: Buffer
  data_key: ColumnType<string | null, string | null | undefined, string | null>
  data_size: ColumnType<number | null, number | null | undefined, number | null>
  /** sha256 of the file, hex. */
  data_hash: ColumnType<string | null, string | null | undefined, string | null>
  created_at: number
}

/** A question's or option's raster picture, stored once per content (API.md "Pictures in questions"). */
export interface PictureTable {
  /** Hex HMAC-SHA-256 of `data`'s sha256 keyed by the server's secret: no one can test for a given picture. */
  hash: string
  /** WebP, at most 1,600 px on its long side, no metadata; empty once `data_key` names it in the file store (105). */
  data: Buffer
  data_key: ColumnType<string | null, string | null | undefined, string | null>
  data_size: ColumnType<number | null, number | null | undefined, number | null>
  width: number
  height: number
  /** sha256 of the decoded pixels (picture-encoding.ts pixelsHash): the same picture come back as PNG is found by it. */
  pixels_hash: string
  created_at: number
  keyed: ColumnType<number, number | undefined, number>
}

/** An institute that stored or uses a picture (migration 0044): its URL answers on that institute's hosts alone. */
export interface PictureUseTable {
  hash: string
}

export interface RefreshTokenTable {
  jti: string
  user_id: number
  /** Every token rotated from one login shares the family: reuse of a rotated token revokes the family. */
  family_id: string
  expires_at: number
  created_at: number
  rotated_at: number | null
  revoked_at: number | null
}

export interface OtpCodeTable {
  phone_number: string
  purpose: string
  code_hash: string
  created_at: number
  expires_at: number
  failed_tries: Generated<number>
  consumed_at: number | null
}

export interface PhoneVerificationTable {
  phone_number: string
  verified_until: number
}

export interface RateLimitCounterTable {
  key: string
  window_start: number
  hits: number
}

export interface QuizTable {
  id: Generated<number>
  title_en: string
  title_ne: string
  start_time: number
  end_time: number | null
  duration_minutes: number
  is_paid_tier: number
  allowed_attempts: number
  difficulty: string
  shuffle_questions: Generated<number>
  shuffle_options: Generated<number>
  created_at: number
  /** Quizzes are soft-deleted so learners' results keep their titles. */
  deleted_at: number | null
  /** Live questions (not deleted, with a current revision); kept by triggers on questions. */
  question_count: Generated<number>
  /** Raised by every change to the quiz's current questions, revisions or order (triggers). */
  question_set_version: Generated<number>
  draw_mode: Generated<string>
  /** A frozen paper's draw, JSON `{itemId: [questionId, ...]}`; null until drawn. */
  frozen_draw: Generated<string | null>
  /** Days after an attempt finished during which its learner may flag a question. */
  challenge_days: Generated<number>
  /** A live mock's start (epoch ms), or null for an ordinary quiz. */
  live_starts_at: Generated<number | null>
  /** Minutes after live_starts_at during which a ranked attempt may start (1..180). */
  live_join_minutes: Generated<number | null>
  national_mock_id: Generated<number | null>
  status: Generated<string>
  /** Minutes after an attempt's deadline during which written answers' pages are still accepted (0..60). */
  upload_grace_minutes: Generated<number>
  /** The Nepal day (`YYYY-MM-DD`) whose daily set this quiz is (docs/decisions/110); null for any other quiz. */
  daily_date: Generated<string | null>
}

/** A bank question's stable identity; its content lives in revisions. */
export interface QuestionTable {
  id: Generated<number>
  revision_id: number | null
  deleted_at: number | null
  difficulty: Generated<string | null>
  source: Generated<string | null>
  /** A copy of a platform bank question (docs/decisions/101): its id there and the revision last taken from it. */
  copied_from_question_id: Generated<number | null>
  copied_from_revision: Generated<number | null>
  national_mock_id: Generated<number | null>
  /** 1: cannot be answered without seeing its picture; left out of a screen reader's paper (decision 114). */
  needs_sight: Generated<number>
}

/** A tag as first written; `name_key` (lower-cased) is unique, so tags compare case-insensitively. */
export interface TagTable {
  id: Generated<number>
  name: string
  name_key: string
}

export interface QuestionTagTable {
  question_id: number
  tag_id: number
  position: number
}

/** A section of a quiz's paper. Marks are in hundredths of a point. */
export interface PaperSectionTable {
  id: Generated<number>
  quiz_id: number
  position: number
  title_en: Generated<string>
  title_ne: Generated<string>
  marks_correct: Generated<number>
  marks_wrong: Generated<number>
  time_limit_minutes: number | null
  /** How multiple questions score: `all_or_nothing` or `partial` (`partial_marks` hundredths a right option). */
  multiple_scheme: Generated<'all_or_nothing' | 'partial'>
  partial_marks: Generated<number>
  /** 0: a wrong numeric answer loses nothing. */
  numeric_negative: Generated<number>
}

/** An item of a section: a fixed question (`question_id`) or a draw (`draw_count` and its filters). */
export interface PaperItemTable {
  id: Generated<number>
  quiz_id: number
  section_id: number
  position: number
  question_id: number | null
  draw_topic: string | null
  /** JSON array of tags, every one required. */
  draw_tags: string | null
  draw_difficulty: string | null
  draw_source: string | null
  /** 'choice' or 'written'; null draws either. */
  draw_type: Generated<string | null>
  draw_count: number | null
  /** The bank passage this fixed question was set from (its questions are rows in its order); null for any other. */
  passage_id: Generated<number | null>
  /** 1: the draw takes whole passages only; 0: lone questions only (docs/decisions/117). */
  draw_passages: Generated<number>
}

/** A bank passage (docs/decisions/117): text and picture as a question revision's, live (edits show everywhere). */
export interface PassageTable extends ImageColumns {
  id: Generated<number>
  text_en: string
  text_ne: string
  /** JSON StoredMaths of the text and caption; null without maths. */
  maths: ColumnType<string | null, string | null | undefined, string | null>
  created_at: number
  updated_at: number
}

/** A passage's questions in order; a question is in at most one passage (the key). */
export interface PassageQuestionTable {
  passage_id: number
  question_id: number
  position: number
}

/** When a learner was last shown a question in any attempt's paper: draws give unseen questions first. */
export interface QuestionShowTable {
  user_id: number
  question_id: number
  shown_at: number
}

/** A set of questions shown together (a paper version's fixed questions, or with its frozen draw); never changes. */
export interface ShownSetTable {
  id: Generated<number>
  /** sha256 hex of the set's sorted question ids: one row per set whichever process meets it first. */
  set_key: string
  created_at: number
}

export interface ShownSetQuestionTable {
  set_id: number
  question_id: number
}

/** When a learner was last shown a whole set: each of its questions counts as shown then (docs/decisions/039). */
export interface SetShowTable {
  user_id: number
  set_id: number
  shown_at: number
}

/** Immutable content of a question: an edit writes a new revision, attempts keep the ones they started with. */
interface ImageColumns {
  image_svg: string | null
  /** pictures.hash of a raster picture, with its size; null with an SVG or no image. */
  image_picture: ColumnType<string | null, string | null | undefined, string | null>
  image_width: ColumnType<number | null, number | null | undefined, number | null>
  image_height: ColumnType<number | null, number | null | undefined, number | null>
  image_caption_en: string
  image_caption_ne: string
}

export interface QuestionRevisionTable extends ImageColumns {
  id: Generated<number>
  question_id: number
  text_en: string
  text_ne: string
  hint_en: string | null
  hint_ne: string
  topic: string
  /** JSON StoredMaths (maths/rich-text.ts): the text, hint, caption and model answer rendered; null without maths. */
  maths: ColumnType<string | null, string | null | undefined, string | null>
  created_at: number
  /** questions/content-hash.ts of the texts, options and answer: duplicates are found by it. */
  content_hash: Generated<string | null>
  /** The current key version (key_versions.version); 0: the key it was written with. */
  key_version: Generated<number>
  type: Generated<QuestionType>
  /** Written only: its marks in hundredths, word limit and model answer (null: none). */
  marks: ColumnType<number | null, number | null | undefined, number | null>
  word_limit: ColumnType<number | null, number | null | undefined, number | null>
  model_answer_en: ColumnType<string | null, string | null | undefined, string | null>
  model_answer_ne: ColumnType<string | null, string | null | undefined, string | null>
  /** Numeric only: JSON `{value, tolerance}` or `{min, max}`, and the decimals a typed answer may have (null: any). */
  numeric_answer: ColumnType<string | null, string | null | undefined, string | null>
  decimals: ColumnType<number | null, number | null | undefined, number | null>
}

export type QuestionType = 'choice' | 'multiple' | 'numeric' | 'written'

/** A written question's rubric; no row is the default one at revision 0. Hundredths. */
export interface RubricTable {
  question_id: number
  scoring: 'positive' | 'negative'
  /** Null: 0 and the marks of the answer's revision. */
  floor: number | null
  ceiling: number | null
  revision: number
  updated_at: number
}

export interface RubricGroupTable {
  id: Generated<number>
  question_id: number
  position: number
  title_en: string
  title_ne: Generated<string>
  exclusive: Generated<number>
}

export interface RubricItemTable {
  id: Generated<number>
  question_id: number
  group_id: number | null
  position: number
  /** Signed hundredths. */
  points: number
  title_en: string
  title_ne: Generated<string>
  explanation_en: string | null
  explanation_ne: string | null
}

export interface WrittenAnswerTable {
  id: Generated<number>
  attempt_id: number
  question_id: number
  revision_id: number
  text: Generated<string>
  word_count: Generated<number>
  status: Generated<WrittenAnswerStatus>
  /** The rubric's score in hundredths once marked; only a released one counts in the attempt's score. */
  score_hundredths: number | null
  adjustment: Generated<number>
  comment_en: string | null
  comment_ne: string | null
  rubric_revision: number | null
  marked_by: number | null
  marked_at: number | null
  released_at: number | null
  claimed_by: Generated<number | null>
  claimed_until: Generated<number | null>
  marking_order: Generated<number>
  created_at: number
  updated_at: number
}

export type WrittenAnswerStatus = 'submitted' | 'marked' | 'released'

export interface WrittenAnswerItemTable {
  answer_id: number
  item_id: number
}

export interface PageImageTable {
  /** sha256 of the page's file, hex. */
  hash: string
  /** Empty once `data_key` names the file in the file store (docs/decisions/105). */
  data: Buffer
  data_key: ColumnType<string | null, string | null | undefined, string | null>
  data_size: ColumnType<number | null, number | null | undefined, number | null>
  content_type: string
  width: number
  height: number
  created_at: number
  /** The page at a phone's width (docs/decisions/078); null until made for a page kept before it. */
  phone_data: Buffer | null
  /** The rendition's file in the store; `phone_data` is then null (docs/decisions/105). */
  phone_key: ColumnType<string | null, string | null | undefined, string | null>
  phone_size: ColumnType<number | null, number | null | undefined, number | null>
}

export interface WrittenAnswerPageTable {
  id: Generated<number>
  answer_id: number
  number: number
  image_hash: string
  annotations: string | null
  created_at: number
}

/** One change of a marked answer's score by a rubric change. Marks in hundredths. */
export interface WrittenRescoreTable {
  id: Generated<number>
  answer_id: number
  attempt_id: number
  question_id: number
  old_marks: number
  new_marks: number
  rubric_revision: number
  actor_id: number | null
  created_at: number
}

/** A learner's regrade request of a released written answer (docs/decisions/071). Marks in hundredths. */
export interface RegradeRequestTable {
  id: Generated<number>
  answer_id: number
  item_id: number | null
  message: string
  status: Generated<'open' | 'accepted' | 'rejected'>
  response: string | null
  decided_by: number | null
  decided_at: number | null
  settled_by: number | null
  settled_at: number | null
  old_marks: number | null
  new_marks: number | null
  /** Rejected, or accepted and settled: one request not closed per answer. */
  closed_at: number | null
  created_at: number
}

export interface QuestionOptionTable extends ImageColumns {
  id: Generated<number>
  revision_id: number
  position: number
  text_en: string
  text_ne: string
  is_correct: number
  maths: ColumnType<string | null, string | null | undefined, string | null>
}

export interface AttemptTable {
  id: Generated<number>
  user_id: number
  quiz_id: number
  attempt_number: number
  status: 'in_progress' | 'finished'
  /** 0: a live mock's practice attempt, started after its join window. */
  ranked: Generated<number>
  started_at: number
  deadline: number
  /** JSON array of question_revisions ids, in the order the learner sees them. */
  revision_ids: string
  /** JSON option ids per question, parallel to revision_ids, in this attempt's order; null: the authored order. */
  option_order: Generated<string | null>
  finished_at: number | null
  score_hundredths: number | null
  correct: number | null
  incorrect: number | null
  unanswered: number | null
  late: Generated<number>
  /** 1 when the learner submitted, 0 when time ran out and the attempt was finished on saved answers. */
  submitted: Generated<number>
  /** The attempt's sections as it started (attempts/paper-sections.ts); null: one section of all, +1 / -0.2. */
  sections: Generated<string | null>
  current_section: Generated<number>
  section_opened_at: Generated<number | null>
  /** 'paper': recorded from an answer sheet of the paper sitting `sitting_id`. */
  mode: Generated<AttemptMode>
  sitting_id: Generated<number | null>
  /** 1 while a part's marks are not final (a written answer not yet released): not counted in ranks. */
  marks_pending: Generated<number>
  /** Questions left out of this paper for a screen reader's user (decision 114); null: the paper as authored. */
  left_out: Generated<number | null>
}

export type AttemptMode = 'online' | 'paper'

export interface AttemptAnswerTable {
  attempt_id: number
  question_id: number
  option_id: number | null
  /** JSON: a multiple question's option ids or a numeric question's typed number; null for a choice answer. */
  value: ColumnType<string | null, string | null | undefined, string | null>
  saved_at: number
}

/** Review mark, visit and seconds of one question of one attempt; no row means none of them. */
export interface AttemptQuestionStateTable {
  attempt_id: number
  question_id: number
  marked: Generated<number>
  visited: Generated<number>
  /** Seconds, summed over the reports; the attempt's total is capped at its age plus 5 s. */
  time_spent: Generated<number>
}

/** A live mock's leaderboard as its end wrote it, kept by later finishes and re-scores. */
export interface LeaderboardSnapshotTable {
  quiz_id: number
  starts_at: number
  participants: number
  /** JSON [{rank, user_id, score_hundredths}], ranks 20 or better. */
  top: string
  top_cutoff: number | null
  taken_at: number
  due_at: number | null
}

/** A live mock's paper key: the paper ahead is encrypted with keys derived from it. */
export interface LivePaperKeyTable {
  quiz_id: number
  /** 32 random bytes, base64url. */
  paper_key: string
  created_at: number
}

export interface FirstAttemptScoreTable {
  quiz_id: number
  score_hundredths: number
  learners: number
  /** One of several rows counting the same score (docs/decisions/138): readers sum over them. */
  shard: Generated<number>
}

/** A question in a learner's mistake deck (Leitner box 1 to 3); deleted questions and quizzes are filtered out. */
export interface PracticeCardTable {
  user_id: number
  /** Stable question id: practice shows the question's current version. */
  question_id: number
  box: number
  due_at: number
  updated_at: number
  /** The quiz of the attempt that put the card there: a deleted quiz takes it out of the deck. */
  quiz_id: Generated<number | null>
}

/** The cards one finish owes its learner's deck, written after it (docs/decisions/080). */
export interface OwedPracticeCardTable {
  id: Generated<number>
  user_id: number
  quiz_id: number
  /** JSON array of question ids, ascending: each goes into box 1. */
  question_ids: string
  /** The finish's time: the cards' due and updated time. */
  owed_at: number
}

/** A key decision on one question revision (docs/decisions/036). */
export interface KeyVersionTable {
  id: Generated<number>
  revision_id: number
  question_id: number
  version: number
  action: 'keep' | 'change' | 'accept_several' | 'drop'
  /** JSON array of the option ids that score right. */
  correct_option_ids: string
  drop_policy: 'full_marks_all' | 'full_marks_answered' | 'exclude' | null
  /** Numeric only: JSON `{value, tolerance}` or `{min, max}` decided over the authored answer. */
  numeric_answer: ColumnType<string | null, string | null | undefined, string | null>
  note: string
  actor_id: number | null
  actor_username: string
  created_at: number
}

/** A learner's challenge of a question revision's key; one per learner and revision. */
export interface FlagTable {
  id: Generated<number>
  attempt_id: number
  user_id: number
  question_id: number
  revision_id: number
  reason: string
  proposed_option_id: number | null
  /** Multiple only: JSON array of the proposed right set, ascending. */
  proposed_option_ids: ColumnType<string | null, string | null | undefined, string | null>
  /** Numeric only: the proposed value in the number rule's shortest form. */
  proposed_value: ColumnType<string | null, string | null | undefined, string | null>
  note: Generated<string>
  status: Generated<'open' | 'accepted' | 'rejected'>
  created_at: number
  decided_at: number | null
  decision: number | null
}

/** One change of one attempt's marks on one question by a key decision. Marks in hundredths. */
export interface RegradeTable {
  id: Generated<number>
  attempt_id: number
  question_id: number
  revision_id: number
  old_marks: number
  new_marks: number
  old_outcome: string
  new_outcome: string
  key_version_id: number
  actor_id: number | null
  created_at: number
}

export interface PlanTable {
  id: Generated<number>
  name_en: string
  name_ne: string
  price_paisa: number
  days: number
  active: number
  created_at: number
}

export interface PaymentTable {
  id: Generated<number>
  user_id: number
  plan_id: number
  provider: 'khalti' | 'esewa' | 'fake'
  /** What the learner pays and gets, copied from the plan when the payment starts: a later plan edit changes neither. */
  amount_paisa: number
  days: number
  status: 'pending' | 'completed' | 'failed'
  failure_reason: string | null
  /** The provider's handle: Khalti's pidx, our eSewa transaction_uuid, the fake gateway's ref. Unique per provider. */
  provider_ref: string | null
  /** The provider's transaction id once it reports one (Khalti transaction_id, eSewa ref_id). */
  provider_transaction_id: string | null
  created_at: number
  updated_at: number
  completed_at: number | null
}

/** The development-only fake gateway's own record, as a real provider would keep it on its side. */
export interface FakeGatewayTransactionTable {
  ref: string
  amount_paisa: number
  status: 'Initiated' | 'Completed' | 'User canceled'
  created_at: number
}

/** One recorded write (docs/decisions/018); append-only, and never a secret (a password is `"changed"`). */
export interface AuditEventTable {
  id: Generated<number>
  occurred_at: number
  /** Null when the command line made the change. */
  actor_id: number | null
  /** The actor's username at the time (a later rename does not rewrite history). */
  actor_username: string
  client_address: string | null
  action: string
  entity_type: string
  entity_id: number | null
  /** The entity's name when it happened (a quiz's English title, a username, a plan's name). */
  entity_label: string
  before_json: string | null
  after_json: string | null
}

/** An import's dry run, kept until `expires_at` (API.md "Import"). */
export interface ImportTable {
  id: Generated<number>
  created_by: number
  format: string
  /** JSON ImportRow[] of the dry run. */
  rows: string
  created_at: number
  expires_at: number
}

/** A login (one refresh-token family): device and address as last seen, for the learner's "Active logins". */
export interface LoginSessionTable {
  id: string
  user_id: number
  /** A short readable name from the User-Agent ("Chrome on Android"); '' when unknown. */
  device: string
  client_address: string
  created_at: number
  last_used_at: number
}

export interface NotificationTable {
  id: Generated<number>
  user_id: number
  /** NotificationKind of contracts/src/notifications.ts. */
  kind: string
  text_en: string
  text_ne: Generated<string>
  link: string | null
  created_at: number
  read_at: number | null
}

export interface PushSubscriptionTable {
  id: Generated<number>
  user_id: number
  endpoint: string
  /** The browser's P-256 public key and auth secret, base64url as the browser gave them. */
  p256dh: string
  auth: string
  created_at: number
  /** Pushes in a row that timed out: at PUSH_TIMEOUTS_BEFORE_DROP the subscription is dropped. */
  timeouts: Generated<number>
}

/** A push or a text message still to send, being sent, sent or given up (docs/decisions/035). */
export interface DeliveryTable {
  id: Generated<number>
  channel: 'push' | 'sms'
  user_id: number
  subscription_id: number | null
  /** JSON: the push's body, or the text message's {text, purpose}. */
  payload: string
  ttl_seconds: number | null
  status: Generated<'pending' | 'done' | 'failed'>
  attempts: Generated<number>
  next_attempt_at: number
  claimed_by: string | null
  claimed_until: number | null
  last_error: string | null
  created_at: number
  finished_at: number | null
}

export interface InstituteTable {
  id: Generated<number>
  slug: string
  name_en: string
  name_ne: Generated<string>
  /** `#rrggbb`. */
  colour: Generated<string>
  logo_hash: string | null
  sms_sender: string | null
  open_registration: Generated<number>
  status: Generated<'active' | 'suspended'>
  created_at: number
  /** Raised by every write of a passage or its questions: what cached papers' passages are keyed by (decision 132). */
  passages_version: Generated<number>
}

export interface InstituteHostTable {
  /** Lower-cased, without a port. */
  host: string
  institute_id: number
}

/** An institute's own merchant keys for one provider (docs/decisions/099); the secret sealed, never plain. */
export interface InstitutePaymentKeyTable {
  institute_id: number
  provider: 'khalti' | 'esewa'
  /** Khalti's public key, eSewa's merchant (product) code. */
  public_id: string | null
  /** `v1.` + base64 of IV, tag and AES-256-GCM ciphertext (institutes/secret-box.ts). */
  secret_sealed: string | null
  updated_at: number
}

/** An account's roles in one institute (docs/decisions/096); a row with no role is a membership ended by an admin. */
export interface MembershipTable {
  user_id: number
  institute_id: number
  is_learner: Generated<number>
  is_admin: Generated<number>
  /** Reaches the marking routes of written answers and nothing else of the admin's (docs/decisions/068). */
  is_marker: Generated<number>
  /** End of paid access at this institute (epoch ms), null for none; PAID_ACCESS_NO_END for a grant with no end. */
  paid_access_until: ColumnType<number | null, number | null | undefined, number | null>
  created_at: number
}

export interface InstituteInvitationTable {
  phone_number: string
  role: 'learner' | 'admin' | 'marker'
  invited_at: number
}

/** The platform's own audit trail (docs/decisions/097): audit_events' columns, no institute's. */
export type PlatformAuditEventTable = AuditEventTable

/** An institute's daily set (docs/decisions/110); marks in hundredths. */
export interface DailySettingsTable {
  institute_id: Generated<number>
  enabled: number
  /** JSON arrays of strings. */
  topics: string
  tags: string
  question_count: number
  duration_minutes: number
  marks_correct: number
  marks_wrong: number
  publish_at: string
  updated_at: number
}

/** One Nepal day of an institute's daily set: fixed by hand and/or published (the draw's claim). */
export interface DailyDayTable {
  institute_id: Generated<number>
  day: string
  question_ids: string | null
  fixed: Generated<number>
  quiz_id: number | null
  published_at: number | null
}

export interface DailyReminderTable {
  institute_id: Generated<number>
  user_id: number
  day: string
  sent_at: number
}

export interface DB {
  daily_settings: DailySettingsTable
  daily_days: DailyDayTable
  daily_reminders: DailyReminderTable
  users: UserTable
  profile_pictures: ProfilePictureTable
  pictures: PictureTable
  picture_uses: PictureUseTable
  refresh_tokens: RefreshTokenTable
  otp_codes: OtpCodeTable
  phone_verifications: PhoneVerificationTable
  rate_limit_counters: RateLimitCounterTable
  quizzes: QuizTable
  questions: QuestionTable
  tags: TagTable
  question_tags: QuestionTagTable
  paper_sections: PaperSectionTable
  paper_items: PaperItemTable
  passages: PassageTable
  passage_questions: PassageQuestionTable
  question_shows: QuestionShowTable
  shown_sets: ShownSetTable
  shown_set_questions: ShownSetQuestionTable
  set_shows: SetShowTable
  question_revisions: QuestionRevisionTable
  question_options: QuestionOptionTable
  attempts: AttemptTable
  attempt_answers: AttemptAnswerTable
  attempt_question_states: AttemptQuestionStateTable
  practice_cards: PracticeCardTable
  owed_practice_cards: OwedPracticeCardTable
  first_attempt_scores: FirstAttemptScoreTable
  leaderboard_snapshots: LeaderboardSnapshotTable
  live_paper_keys: LivePaperKeyTable
  plans: PlanTable
  payments: PaymentTable
  fake_gateway_transactions: FakeGatewayTransactionTable
  audit_events: AuditEventTable
  platform_audit_events: PlatformAuditEventTable
  national_mocks: NationalMockTable
  national_takers: NationalTakerTable
  national_entries: NationalEntryTable
  login_sessions: LoginSessionTable
  imports: ImportTable
  key_versions: KeyVersionTable
  flags: FlagTable
  regrades: RegradeTable
  notifications: NotificationTable
  push_subscriptions: PushSubscriptionTable
  live_registrations: LiveRegistrationTable
  live_announcements: LiveAnnouncementTable
  deliveries: DeliveryTable
  sittings: SittingTable
  sitting_roster: SittingRosterTable
  sitting_scans: SittingScanTable
  scan_photos: ScanPhotoTable
  rubrics: RubricTable
  rubric_groups: RubricGroupTable
  rubric_items: RubricItemTable
  written_answers: WrittenAnswerTable
  written_answer_items: WrittenAnswerItemTable
  page_images: PageImageTable
  written_answer_pages: WrittenAnswerPageTable
  written_rescores: WrittenRescoreTable
  regrade_requests: RegradeRequestTable
  booklet_pages: BookletPageTable
  institutes: InstituteTable
  institute_hosts: InstituteHostTable
  memberships: MembershipTable
  institute_invitations: InstituteInvitationTable
  institute_payment_keys: InstitutePaymentKeyTable
}

export type UserRow = Selectable<UserTable>
export type NewUserRow = Insertable<UserTable>
export type UserRowUpdate = Updateable<UserTable>
export type QuizRow = Selectable<QuizTable>
export type NewQuizRow = Insertable<QuizTable>
export type QuizRowUpdate = Updateable<QuizTable>
export type PassageRow = Selectable<PassageTable>
export type QuestionRevisionRow = Selectable<QuestionRevisionTable>
export type NewQuestionRevisionRow = Insertable<QuestionRevisionTable>
export type QuestionOptionRow = Selectable<QuestionOptionTable>
export type NewQuestionOptionRow = Insertable<QuestionOptionTable>
export type AttemptRow = Selectable<AttemptTable>
export type PlanRow = Selectable<PlanTable>
export type PaymentRow = Selectable<PaymentTable>

/** paid_access_until of a grant with no end: 9999-12-31T23:59:59.999Z, later than any real end. */
export const PAID_ACCESS_NO_END = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

export interface LiveRegistrationTable {
  quiz_id: number
  user_id: number
  created_at: number
}

/** A live mock's reminder or results notice, sent once: the process whose update moves it off pending sends it. */
export interface LiveAnnouncementTable {
  id: Generated<number>
  quiz_id: number
  kind: 'reminder_day' | 'reminder_quarter' | 'results'
  starts_at: number
  due_at: number
  status: Generated<'pending' | 'sent' | 'skipped'>
  sent_at: number | null
  recipients: number | null
  /** The last learner id told: chunks go in id order, each with the row locked. */
  done_through: Generated<number>
}

/** A paper sitting of a quiz (API.md "Paper sittings"): its paper and sets frozen when created. */
export interface SittingTable {
  id: Generated<number>
  quiz_id: number
  title_en: string
  title_ne: Generated<string>
  held_at: number
  option_labels: Generated<'latin' | 'devanagari'>
  status: Generated<'open' | 'closed'>
  /** JSON array of question_revisions ids: the frozen paper in set A's order. */
  revision_ids: string
  /** The paper's sections, JSON as attempts.sections. */
  sections: string | null
  /** JSON, one entry per set: its question order (indexes into revision_ids) and each question's option ids. */
  sets: string
  created_by: number | null
  created_at: number
  booklet_pages: Generated<number>
}

export interface SittingRosterTable {
  sitting_id: number
  user_id: number
  roll_number: number
  set_letter: string
}

/** One photographed answer sheet: what was read, what a person must still decide, and the photo kept. */
export interface SittingScanTable {
  id: Generated<number>
  sitting_id: number
  /** The QR code's sheet: 'R<roll>U<learner>' (or 'R<roll>' before), 'B<serial>' blank, 'B<serial>/<n>' a copy. */
  sheet: string
  status: 'recorded' | 'needs_review'
  roll_number: number | null
  set_letter: string | null
  user_id: number | null
  /** JSON {"1": "B", "2": null, ...} in the printed numbers and letters of the scan's set. */
  answers: string
  /** JSON [{question, kind, marks}]; empty once recorded. */
  flags: string
  attempt_id: number | null
  /** Empty once `photo_key` names the file in the file store (docs/decisions/105). */
  photo: Buffer
  photo_key: ColumnType<string | null, string | null | undefined, string | null>
  photo_size: ColumnType<number | null, number | null | undefined, number | null>
  /** sha256 of the photo's file, hex. */
  photo_hash: ColumnType<string | null, string | null | undefined, string | null>
  photo_type: string
  scanned_by: number | null
  created_at: number
  updated_at: number
}

/** A scan's photo that a later photo replaced, kept for the audit trail. */
export interface ScanPhotoTable {
  id: Generated<number>
  scan_id: number
  /** Empty once `photo_key` names the file in the file store (docs/decisions/105). */
  photo: Buffer
  photo_key: ColumnType<string | null, string | null | undefined, string | null>
  photo_size: ColumnType<number | null, number | null | undefined, number | null>
  /** sha256 of the photo's file, hex. */
  photo_hash: ColumnType<string | null, string | null | undefined, string | null>
  photo_type: string
  scanned_by: number | null
  replaced_at: number
  replaced_by: number | null
}

/** A photographed written-answer booklet page of a sitting (docs/decisions/075). */
export interface BookletPageTable {
  id: Generated<number>
  sitting_id: number
  sheet: string
  serial: number | null
  page_number: number | null
  status: 'recorded' | 'needs_review' | 'discarded'
  roll_number: number | null
  user_id: number | null
  /** JSON array of printed question numbers. */
  questions: string
  flags: string
  /** JSON scan box of the question bubbles. */
  question_box: string
  /** The whole photo, upright: what an admin reviewing the scan sees. */
  image_hash: string
  /** What joins the written answers (markers, the learner): the photo with name, roll and code gone. */
  answer_hash: string | null
  upload_hash: string
  scanned_by: number | null
  created_at: number
  updated_at: number
}

export interface NationalMockTable {
  id: Generated<number>
  title: string
  duration_minutes: number
  live_starts_at: number
  live_join_minutes: number
  sections_json: string
  created_at: number
}

export interface NationalTakerTable {
  national_mock_id: number
  institute_id: number
  quiz_id: number
  joined_at: number
}

export interface NationalEntryTable {
  national_mock_id: number
  institute_id: number
  user_id: number
  score_hundredths: number
}

// The quiz columns a learner's list and an attempt's reads both select, as `q` (decision 024).
export const learnerQuizColumns = [
  'q.id',
  'q.title_en',
  'q.title_ne',
  'q.start_time',
  'q.end_time',
  'q.duration_minutes',
  'q.is_paid_tier',
  'q.allowed_attempts',
  'q.difficulty',
  'q.shuffle_questions',
  'q.shuffle_options',
  'q.live_starts_at',
  'q.live_join_minutes',
] as const

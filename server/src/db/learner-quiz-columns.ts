// The quiz columns both a learner's list (quizzes/) and an attempt's reads (attempts/) select, as `q`; each adds its
// own (decision 024: the two reads may diverge beyond these).
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

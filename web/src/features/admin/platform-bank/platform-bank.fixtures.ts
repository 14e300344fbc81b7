// The platform bank's rows and question as the server sends them, for the screens' tests.

/** A bank list row. */
export const row = (id: number, en: string) => ({
  id,
  type: 'single',
  marks: null,
  text: { en, ne: '' },
  topic: 'Physics',
  tags: ['loksewa'],
  difficulty: null,
  source: 'Platform 2083',
  option_count: 2,
  used_in: [],
  responses: 0,
  facility: null,
  copied_from: null,
  update_available: false,
})
/** One question as its card opens it. */
export const question = (id: number) => ({
  ...row(id, 'What is the SI unit of force?'),
  revision_id: 1,
  hint: null,
  image: null,
  options: [
    { id: 1, text: { en: 'Joule', ne: '' }, is_correct: false, image: null },
    { id: 2, text: { en: 'Newton', ne: '' }, is_correct: true, image: null },
  ],
  key: null,
  word_limit: null,
  model_answer: null,
})

// What the sittings' screen tests are answered with: a quiz, a sitting, its roster and scans as the server sends them.
import type { BookletPage, Roster, Scan, Sitting, SittingPaper } from './sittings.api'

export const quiz = {
  id: 5,
  title: { en: 'Nayab Subba prelim', ne: 'नायब सुब्बा प्रारम्भिक' },
  start_time: '2026-11-22T07:00:00.000Z',
  end_time: null,
  duration_minutes: 45,
  difficulty: 'medium',
  is_paid_tier: false,
  allowed_attempts: 3,
  shuffle_questions: false,
  shuffle_options: false,
  question_count: 2,
  questions: [],
  draw_mode: 'frozen',
  warnings: [],
  sections: [],
}

export const sitting: Sitting = {
  id: 9,
  quiz_id: 5,
  title: { en: 'Mock 1, Putalisadak hall', ne: 'नमुना १, पुतलीसडक हल' },
  held_at: '2026-12-01T04:15:00.000Z',
  sets: ['A', 'B'],
  option_labels: 'latin',
  question_count: 2,
  status: 'open',
  roster_count: 3,
  scans: { recorded: 1, needs_review: 1 },
  booklet_pages: 4,
}

/** A rich text without maths. */
const plain = (en: string, ne: string) => ({ en, ne, html: null })

const learner = (id: number, username: string, full_name: string) => ({ id, username, full_name })

export const roster: Roster = {
  roster: [
    { roll_number: 1, set: 'A', user: learner(31, 'sita', 'Sita Sharma') },
    { roll_number: 2, set: 'B', user: learner(32, 'ram', 'Ram Thapa') },
    { roll_number: 3, set: 'A', user: learner(33, 'gita', 'Gita Rai') },
  ],
}

export const recordedScan: Scan = {
  id: 70,
  status: 'recorded',
  roll_number: 1,
  set: 'A',
  learner: learner(31, 'sita', 'Sita Sharma'),
  answers: { '1': 'B', '2': null },
  flags: [],
  score: 2,
  attempt_id: 400,
}

export const flaggedScan: Scan = {
  id: 71,
  status: 'needs_review',
  roll_number: 2,
  set: 'B',
  learner: learner(32, 'ram', 'Ram Thapa'),
  answers: { '1': null, '2': 'A' },
  // Question 1's row: the left fifth of the photo, under its top third.
  flags: [
    { question: 1, kind: 'multiple', marks: ['A', 'C'], box: { x: 0.08, y: 0.3, width: 0.2, height: 0.02, turn: 0 } },
  ],
  score: null,
  attempt_id: null,
}

export const paper: SittingPaper = {
  set: 'A',
  instructions: { en: 'Fill one bubble per question.', ne: 'प्रत्येक प्रश्नमा एउटा गोलो भर्नुहोस्।' },
  passages: [],
  sections: [
    {
      title: { en: 'Constitution', ne: 'संविधान' },
      marks_correct: 2,
      marks_wrong: 0.4,
      questions: [
        {
          number: 1,
          type: 'choice',
          passage_id: null,
          text: plain('Article 1 says?', 'धारा १ ले के भन्छ?'),
          image: null,
          options: [
            { label: 'A', text: plain('Sovereignty', 'सार्वभौमसत्ता'), image: null },
            { label: 'B', text: plain('Language', 'भाषा'), image: null },
          ],
        },
      ],
    },
    {
      title: { en: 'Maths', ne: 'गणित' },
      marks_correct: 1,
      marks_wrong: 0,
      questions: [
        {
          number: 2,
          type: 'choice',
          passage_id: null,
          text: {
            en: 'x squared is 4; x is?',
            ne: '',
            html: {
              en:
                '<math><msup><mi>x</mi><mn>2</mn></msup></math> = 4; x is?' +
                // A table as the server renders one (API.md "Tables in questions").
                '<div class="q-table" tabindex="0" role="group"><table><thead><tr><th scope="col">x</th>' +
                '<th scope="col" class="align-right">x²</th></tr></thead><tbody><tr><td>2</td>' +
                '<td class="align-right">4</td></tr></tbody></table></div>',
              ne: '',
            },
          },
          image: { svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', picture: null, caption: plain('', '') },
          options: [
            { label: 'A', text: plain('2', '२'), image: null },
            { label: 'B', text: plain('3', '३'), image: null },
          ],
        },
      ],
    },
  ],
}

const printed = (number: number, type: SittingPaper['sections'][number]['questions'][number]['type'], en: string) => ({
  number,
  type,
  passage_id: null as number | null,
  text: plain(en, ''),
  image: null,
  options:
    type === 'numeric'
      ? []
      : ['A', 'B', 'C'].map((label) => ({ label, text: plain(`${en} ${label}`, ''), image: null })),
})

/** A paper of every type: a multiple question, a numeric one, and a passage serving questions 3 and 4. */
export const typedPaper: SittingPaper = {
  set: 'A',
  instructions: { en: 'Fill the bubbles.', ne: 'गोलो भर्नुहोस्।' },
  passages: [
    { id: 40, text: plain('The Koshi is the largest river of Nepal.', 'कोशी नेपालको सबैभन्दा ठूलो नदी हो।'), image: null },
  ],
  sections: [
    {
      title: plain('', ''),
      marks_correct: 4,
      marks_wrong: 2,
      questions: [
        printed(1, 'multiple', 'Which are prime?'),
        printed(2, 'numeric', 'Give pi to two decimals.'),
        { ...printed(3, 'choice', 'Which river is largest?'), passage_id: 40 },
        { ...printed(4, 'choice', 'Where does it flow?'), passage_id: 40 },
      ],
    },
  ],
}

/** A written paper's booklet page geometry as `booklet-layout/` sends it: written questions 3 and 4. */
export const bookletLayout = {
  page: { width_mm: 210, height_mm: 297 },
  markers: [],
  qr: { x_mm: 170, y_mm: 12, size_mm: 26 },
  questions: [3, 4].map((number, index) => ({ number, x_mm: 20 + 9 * index, y_mm: 48, r_mm: 2.25 })),
  roll: [],
  answer_area: { left_mm: 14, top_mm: 60, right_mm: 196, bottom_mm: 280 },
}

export const recordedPage: BookletPage = {
  kind: 'page',
  id: 80,
  status: 'recorded',
  roll_number: 1,
  page_number: 2,
  spare: false,
  learner: learner(31, 'sita', 'Sita Sharma'),
  questions: [3, 4],
  flags: [],
  question_box: { x: 0.08, y: 0.15, width: 0.4, height: 0.03, turn: 0 },
}

/** Ram's first page, whose question bubbles were between blank and filled. */
export const unclearPage: BookletPage = {
  kind: 'page',
  id: 81,
  status: 'needs_review',
  roll_number: 2,
  page_number: 1,
  spare: false,
  learner: learner(32, 'ram', 'Ram Thapa'),
  questions: [],
  flags: [{ kind: 'question_unclear', marks: ['4'], box: { x: 0.08, y: 0.15, width: 0.4, height: 0.03, turn: 0 } }],
  question_box: { x: 0.08, y: 0.15, width: 0.4, height: 0.03, turn: 0 },
}

/** A blank booklet's spare page whose roll number could not be read. */
export const unknownPage: BookletPage = {
  kind: 'page',
  id: 82,
  status: 'needs_review',
  roll_number: null,
  page_number: null,
  spare: true,
  learner: null,
  questions: [],
  flags: [{ kind: 'roll', marks: [], box: { x: 0.6, y: 0.05, width: 0.3, height: 0.12, turn: 0 } }],
  question_box: { x: 0.08, y: 0.15, width: 0.4, height: 0.03, turn: 0 },
}

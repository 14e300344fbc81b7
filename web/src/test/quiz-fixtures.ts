import type { QuizAttempt, QuizQuestion } from '@quiz/contracts'

// The quiz screen's test data: one quiz of 12 questions and the attempt GET /api/quizzes/7/ returns.
export const QUIZ_ID = 7
export const ATTEMPT_ID = 42
export const TOTAL = 12
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 10 L5 0 L10 10 Z"/></svg>'

export function makeQuestion(number: number): QuizQuestion {
  return {
    id: 100 + number,
    number,
    type: 'choice',
    text: { en: `What is question ${number}?`, ne: `प्रश्न ${number} के हो?`, html: null },
    topic: '',
    image: number === 1 ? { svg: SVG, picture: null, caption: { en: 'A triangle', ne: 'त्रिभुज', html: null } } : null,
    options: [1, 2, 3, 4].map((k) => ({
      id: 1000 + number * 10 + k,
      text: { en: `Choice ${k} for ${number}`, ne: `विकल्प ${k}`, html: null },
      image: null,
    })),
    marks: null,
    word_limit: null,
    passage: null,
  }
}

export function makeSession(overrides: Partial<QuizAttempt['attempt']> = {}): QuizAttempt {
  return {
    id: QUIZ_ID,
    title: { en: 'General Knowledge', ne: 'सामान्य ज्ञान' },
    duration_minutes: 15,
    difficulty: 'medium',
    is_paid_tier: false,
    allowed_attempts: 3,
    remaining_attempts: 2,
    question_count: TOTAL,
    questions: Array.from({ length: TOTAL }, (_, index) => ({ id: 101 + index })),
    attempt: {
      id: ATTEMPT_ID,
      started_at: '2026-11-22T07:00:00.000Z',
      deadline: '2026-11-22T07:15:00.000Z',
      remaining_seconds: 900,
      ranked: true,
      answers: {},
      marked: [],
      visited: [],
      time_spent: {},
      sections: [
        {
          title: { en: '', ne: '' },
          marks_correct: 1,
          marks_wrong: 0.2,
          first: 1,
          count: TOTAL,
          time_limit_minutes: null,
          deadline: null,
          closed: false,
        },
      ],
      ...overrides,
    },
  }
}

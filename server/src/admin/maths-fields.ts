import { checkMathsInSlices } from '../maths/check-maths'
import { questionTexts } from '../maths/question-maths'
import { quizBodyQuestions } from './quiz-body-questions'

// The maths refusals of the question routes (maths/question-maths.ts) and of create-from-JSON's questions.

export { questionMathsErrors } from '../maths/question-maths'

export const quizMathsErrors = (body: unknown) =>
  checkMathsInSlices(quizBodyQuestions(body).flatMap(([question, prefix]) => questionTexts(question, prefix)))

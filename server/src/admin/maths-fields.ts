import { checkMathsInSlices } from '../maths/check-maths'
import { questionTexts } from '../maths/question-maths'
import { quizBodyQuestions } from './quiz-body-questions'

export { questionMathsErrors } from '../maths/question-maths'

export const quizMathsErrors = (body: unknown) =>
  checkMathsInSlices(quizBodyQuestions(body).flatMap(([question, prefix]) => questionTexts(question, prefix)))

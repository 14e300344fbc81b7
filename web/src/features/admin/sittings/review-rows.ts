import { useQuery } from '@tanstack/react-query'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatMarks } from '../../../lib/format'
import { sittingQueries, type Sitting, type SittingPaper, type SittingSet } from './sittings.api'

/** The question's section marks as printed on its set's booklet ("+2 / −0.5"). */
export function useQuestionMarks(paper: SittingPaper | undefined) {
  const language = useLanguage()
  return (question: number) => {
    const section = paper?.sections.find((each) => each.questions.some((one) => one.number === question))
    return section
      ? `${formatMarks(section.marks_correct, language)} / ${formatMarks(-section.marks_wrong, language)}`
      : ''
  }
}

/** The letters a question's row has on the sheet (from the set's sheet layout); the marked ones while it loads. */
export function useRowLetters(sitting: Sitting, set: SittingSet | null) {
  const layout = useQuery({ ...sittingQueries.layout(sitting.id, set ?? 'A'), enabled: set !== null })
  return (question: number, marked: readonly string[]) =>
    layout.data?.questions.find((row) => row.number === question)?.options.map((option) => option.label) ?? [...marked]
}

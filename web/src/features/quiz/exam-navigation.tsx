import { ExamPalette } from './exam-palette'
import { stateOf, type PaletteState, type ProgressMaps } from './palette-state'
import { QuestionNavigator } from './question-navigator'
import { SectionNotices, SectionTabs } from './section-tabs'
import type { ExamSections } from './use-exam-sections'

interface ExamNavigationProps {
  paper: ExamSections | null
  questionIds: number[]
  progress: ProgressMaps
  counts: Record<PaletteState, number>
  number: number
  total: number
  isAnswered: (id: number) => boolean
  goTo: (number: number) => void
  /** The passage a question (by number) is read under, numbered from 1; null for a lone question. */
  passageOf?: (number: number) => number | null
}

/** A sectioned paper's notices and tabs, and the palette whose navigator pages within the section on screen. */
export function ExamNavigation({
  paper,
  questionIds,
  progress,
  counts,
  number,
  total,
  isAnswered,
  goTo,
  passageOf = () => null,
}: ExamNavigationProps) {
  const view = paper ? paper.sections[paper.viewing]! : { first: 1, count: total }
  return (
    <>
      {paper && (
        <>
          <SectionNotices paper={paper} />
          <SectionTabs
            paper={paper}
            questionIds={questionIds}
            isAnswered={isAnswered}
            onSelect={(index) => goTo(paper.sections[index]!.first)}
          />
        </>
      )}
      <ExamPalette
        counts={counts}
        navigator={(picked) => (
          <QuestionNavigator
            total={view.count}
            offset={view.first - 1}
            current={number - view.first}
            stateAt={(index) => stateOf(questionIds[index + view.first - 1] ?? 0, progress)}
            passageAt={(index) => passageOf(index + view.first)}
            onSelect={(index) => {
              picked()
              goTo(index + view.first)
            }}
          />
        )}
      />
    </>
  )
}

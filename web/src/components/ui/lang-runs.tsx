import type { ReactNode } from 'react'
import { useLanguage } from '../../i18n/use-bilingual'

// A run of the other script with the spaces and marks between its words: "उत्तर: ख" is one run, not two.
const DEVANAGARI_RUN = /[\u0900-\u097F]+(?:[\s.:()।-]+[\u0900-\u097F]+)*/gu
const LATIN_RUN = /[A-Za-z][A-Za-z0-9]*(?:[\s.:()'-]+[A-Za-z0-9]+)*/g

/**
 * An interface text that quotes the other language ("an answer line: Answer: B or उत्तर: ख"): each run of the other
 * script carries its `lang`, so that a screen reader reads it with that language's voice instead of the page's.
 */
export function LangRuns({ text }: { text: string }) {
  const language = useLanguage()
  const [pattern, lang] = language === 'ne' ? [LATIN_RUN, 'en'] : [DEVANAGARI_RUN, 'ne']
  const parts: ReactNode[] = []
  let last = 0
  for (const match of text.matchAll(pattern)) {
    parts.push(text.slice(last, match.index))
    parts.push(
      <span lang={lang} key={match.index}>
        {match[0]}
      </span>,
    )
    last = match.index + match[0].length
  }
  parts.push(text.slice(last))
  return <>{parts}</>
}

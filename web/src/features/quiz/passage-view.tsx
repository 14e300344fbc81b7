import type { LearnerPassage } from '@quiz/contracts'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/button'
import { RichText } from '../../components/ui/rich-text'
import { QuestionImage } from '../../components/ui/svg-image'
import { useBilingual } from '../../i18n/use-bilingual'
import './quiz.i18n'

// Passages the learner has been shown in this tab: on a phone they come folded to their first lines the next time
// (WEB.md "Question types on the screens"), so the question under them is on screen at once.
const shownPassages = new Set<number>()

/** Forgets which passages were shown (tests start each from an unread passage). */
export const forgetShownPassages = () => shownPassages.clear()

/**
 * A reading passage beside its question on a wide screen (each scrolling on its own) and above it on a phone, where
 * it is held to part of the screen and, once read, folded to its first lines behind "Read the passage".
 */
export function PassageView({ passage }: { passage: LearnerPassage }) {
  const { t } = useTranslation('quiz')
  const pick = useBilingual()
  const headingId = useId()
  const bodyId = useId()
  const [folded, setFolded] = useState(() => shownPassages.has(passage.id))
  shownPassages.add(passage.id)

  return (
    <section className={`passage card${folded ? ' passage--folded' : ''}`} aria-labelledby={headingId}>
      <h3 id={headingId} className="passage__heading">
        {t('passage.heading')}
      </h3>
      {/* It scrolls on its own: keyboard users must be able to reach it to scroll it (axe scrollable-region-focusable). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div id={bodyId} className="passage__body" tabIndex={0} aria-labelledby={headingId}>
        <RichText as="div" className="passage__text" text={passage.text} />
        {passage.image && (
          <QuestionImage image={passage.image} alt={pick(passage.image.caption) || t('passage.image_alt')} eager />
        )}
      </div>
      <Button
        small
        className="passage__toggle"
        aria-expanded={!folded}
        aria-controls={bodyId}
        onClick={() => setFolded(!folded)}
      >
        {folded ? t('passage.read') : t('passage.fold')}
      </Button>
    </section>
  )
}

import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { RegionCrop, ScanPhoto } from './review-photo'
import { useQuestionMarks, useRowLetters } from './review-rows'
import { LearnerSelect, SettleFailure, type ReviewCardProps } from './review-parts'
import { useFlagText } from './scan-outcome'
import {
  downloadReaderView,
  sittingQueries,
  useSettleScan,
  type Scan,
  type ScanFlag,
  type SittingSet,
} from './sittings.api'
import './sittings.i18n'

/** What the person has chosen so far for each of the sheet's flags. */
interface Decision {
  answers: Record<string, string | null>
  roll: string
  set: SittingSet | ''
}

/** A sheet that needs a person: its photo, and each flag with its choices; settling the last records the attempt. */
export function ScanCard({ sitting, scan, roster, onSettled }: ReviewCardProps<Scan> & { scan: Scan }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const flagText = useFlagText()
  const settle = useSettleScan(sitting.id, scan.id)
  const [decision, setDecision] = useState<Decision>({ answers: {}, roll: '', set: '' })
  const set = (decision.set || scan.set) as SittingSet | null
  const paper = useQuery({ ...sittingQueries.paper(sitting.id, set ?? 'A'), enabled: set !== null })
  const marksOf = useQuestionMarks(paper.data)
  const lettersOf = useRowLetters(sitting, set)
  const questionFlags = scan.flags.filter((flag) => flag.question !== null)
  const rollFlag = scan.flags.find((flag) => flag.kind === 'roll')
  const setFlag = scan.flags.find((flag) => flag.kind === 'set')
  const needsRoll = rollFlag !== undefined
  const needsSet = setFlag !== undefined
  const undecided =
    questionFlags.some((flag) => !(String(flag.question) in decision.answers)) ||
    (needsRoll && !decision.roll) ||
    (needsSet && !decision.set)
  // mutateAsync, not mutate's callbacks: once settled the sheet leaves the list (the refetch unmounts this card),
  // and the review page, which stays, says what became of it.
  const submit = () =>
    void settle
      .mutateAsync({
        ...(questionFlags.length ? { answers: decision.answers } : {}),
        ...(decision.roll ? { roll_number: Number(decision.roll) } : {}),
        ...(decision.set ? { set: decision.set } : {}),
      })
      .then(onSettled, () => undefined)
  const who = scan.learner ? scan.learner.full_name || scan.learner.username : t('outcome.unknown_learner')
  return (
    <article className="card review-card" aria-labelledby={`scan-${scan.id}`}>
      <h3 id={`scan-${scan.id}`}>
        {who} ·{' '}
        {t('outcome.roll_set', { roll: scan.roll_number === null ? '?' : n(scan.roll_number), set: scan.set ?? '?' })}
      </h3>
      <div className="review-card__body">
        <div className="stack">
          <ScanPhoto scan={scan} />
          <ReaderViewButton scanId={scan.id} />
        </div>
        <div className="review-card__flags stack">
          {needsRoll && (
            <div className="field review-flag">
              <label htmlFor={`roll-${scan.id}`}>{flagText({ kind: 'roll', question: null, marks: [] })}</label>
              <RegionCrop source={{ kind: 'scan', id: scan.id }} box={rollFlag.box} label={t('review.crop_roll')} />
              <LearnerSelect
                id={`roll-${scan.id}`}
                value={decision.roll}
                roster={roster}
                onChange={(roll) => setDecision({ ...decision, roll })}
              />
            </div>
          )}
          {needsSet && (
            <div className="field review-flag">
              <label htmlFor={`set-${scan.id}`}>{flagText({ kind: 'set', question: null, marks: [] })}</label>
              <RegionCrop source={{ kind: 'scan', id: scan.id }} box={setFlag.box} label={t('review.crop_set')} />
              <select
                id={`set-${scan.id}`}
                value={decision.set}
                onChange={(event) => setDecision({ ...decision, set: event.target.value as SittingSet | '' })}
              >
                <option value="">{t('review.choose_set')}</option>
                {sitting.sets.map((each) => (
                  <option key={each} value={each}>
                    {each}
                  </option>
                ))}
              </select>
            </div>
          )}
          {questionFlags.map((flag) =>
            flag.kind === 'numeric_unclear' ? (
              <NumericFlag
                key={flag.question}
                scanId={scan.id}
                flag={flag}
                marks={marksOf(flag.question!)}
                chosen={decision.answers[String(flag.question)]}
                onChoose={(value) => {
                  // An emptied box is undecided again, not "no answer".
                  const others = Object.fromEntries(
                    Object.entries(decision.answers).filter(([key]) => key !== String(flag.question)),
                  )
                  setDecision({
                    ...decision,
                    answers: value === undefined ? others : { ...others, [String(flag.question)]: value },
                  })
                }}
              />
            ) : (
              <QuestionFlag
                key={flag.question}
                scanId={scan.id}
                flag={flag}
                marks={marksOf(flag.question!)}
                letters={lettersOf(flag.question!, flag.marks)}
                chosen={decision.answers[String(flag.question)]}
                onChoose={(letter) =>
                  setDecision({ ...decision, answers: { ...decision.answers, [String(flag.question)]: letter } })
                }
              />
            ),
          )}
          <SettleFailure error={settle.error} />
          <div className="actions">
            <Button variant="primary" onClick={submit} disabled={undecided || settle.isPending}>
              {settle.isPending ? t('review.settling') : t('review.settle')}
            </Button>
          </div>
        </div>
      </div>
    </article>
  )
}

interface QuestionFlagProps {
  scanId: number
  flag: ScanFlag
  /** The question's section marks ("+2 / −0.5"), or nothing while the paper loads. */
  marks: string
  letters: readonly string[]
  /** The letter chosen, null for "no answer", undefined while undecided. */
  chosen: string | null | undefined
  onChoose: (letter: string | null) => void
}

/** A flagged question's number, its section marks and why it was flagged. */
function FlagLegend({ flag, marks, question }: Pick<QuestionFlagProps, 'flag' | 'marks'> & { question: string }) {
  const { t } = useTranslation('sittings')
  const flagText = useFlagText()
  return (
    <legend>
      <strong>{t('review.question', { number: question })}</strong>
      {marks && <span className="muted"> ({marks})</span>}
      <span className="review-flag__why">{flagText(flag)}</span>
    </legend>
  )
}

/** A flagged question: why, its row on the photo enlarged, and the row's letters or no answer to choose from. */
function QuestionFlag({ scanId, flag, marks, letters, chosen, onChoose }: QuestionFlagProps) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const question = formatNumber(flag.question!, language)
  return (
    <fieldset className="review-flag review-flag--question">
      <FlagLegend flag={flag} marks={marks} question={question} />
      <RegionCrop
        source={{ kind: 'scan', id: scanId }}
        box={flag.box}
        label={t('review.crop_question', { number: question })}
      />
      <div className="review-choices">
        {[...letters, null].map((letter) => (
          <label
            key={letter ?? 'blank'}
            className={
              letter !== null && flag.marks.includes(letter) ? 'review-choice review-choice--marked' : 'review-choice'
            }
          >
            <input
              type="radio"
              name={`scan-${scanId}-q-${flag.question}`}
              checked={chosen !== undefined && chosen === letter}
              onChange={() => onChoose(letter)}
            />
            {letter ?? t('review.blank')}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

/** A numeric question's grid the reader doubted: its grid on the photo enlarged, and the number typed or no answer. */
function NumericFlag({
  scanId,
  flag,
  marks,
  chosen,
  onChoose,
}: Omit<QuestionFlagProps, 'letters' | 'onChoose'> & { onChoose: (value: string | null | undefined) => void }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const question = formatNumber(flag.question!, language)
  const [typed, setTyped] = useState('')
  const inputId = `scan-${scanId}-n-${flag.question}`
  return (
    <fieldset className="review-flag review-flag--question">
      <FlagLegend flag={flag} marks={marks} question={question} />
      <RegionCrop
        source={{ kind: 'scan', id: scanId }}
        box={flag.box}
        label={t('review.crop_grid', { number: question })}
      />
      <div className="review-choices">
        <label htmlFor={inputId}>{t('review.number')}</label>
        <input
          id={inputId}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={typed}
          onChange={(event) => {
            setTyped(event.target.value)
            onChoose(event.target.value.trim() === '' ? undefined : event.target.value.trim())
          }}
        />
        <label className="review-choice">
          <input
            type="radio"
            name={`scan-${scanId}-q-${flag.question}`}
            checked={chosen === null}
            onChange={() => {
              setTyped('')
              onChoose(null)
            }}
          />
          {t('review.blank')}
        </label>
      </div>
    </fieldset>
  )
}

/** Downloads the reader's view of the scan: for support, to see why a sheet was flagged. */
function ReaderViewButton({ scanId }: { scanId: number }) {
  const { t } = useTranslation('sittings')
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle')
  const open = () => {
    setState('busy')
    downloadReaderView(scanId).then(
      () => setState('idle'),
      () => setState('failed'),
    )
  }
  return (
    <p>
      <Button onClick={open} disabled={state === 'busy'}>
        {t('review.reader_view')}
      </Button>
      {state === 'failed' && <span role="alert"> {t('review.reader_view_failed')}</span>}
    </p>
  )
}

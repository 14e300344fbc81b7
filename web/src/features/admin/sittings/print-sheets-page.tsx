import { useQueries } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { svgDataUrl } from '../../../components/ui/svg-image'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { CountField, PrintReadiness, useCount, WithRoster } from './print-parts'
import { SittingFrame } from './sitting-frame'
import { sittingQueries, type Roster, type Sitting } from './sittings.api'
import './sittings.i18n'

/** Blank sheets a sitting may print at once (walk-in learners); the server numbers up to 9,999. */
const MAX_BLANK = 200
/** A sheet fills the A4 page exactly: no margin, so the printer's "actual size" puts the corner squares in place. */
const SHEET_PAGE_RULE = '@page { size: A4; margin: 0; }'

/** /admin/sittings/{id}/print/sheets: every roster learner's answer sheet and some blank ones, one per A4 page. */
export function Component() {
  const { t } = useTranslation('sittings')
  return (
    <SittingFrame back="sitting" className="sittings-print" heading={(name) => t('sheets.title', { name })}>
      {(sitting) => (
        <WithRoster sitting={sitting}>{(roster) => <Sheets sitting={sitting} roster={roster} />}</WithRoster>
      )}
    </SittingFrame>
  )
}

/** The sheets' names for the server: `{roll}.svg` for the roster, then `blank.svg?serial=N`. */
export const sheetNames = (roster: Roster, blanks: number) => [
  ...roster.roster.map((entry) => ({ key: `roll-${entry.roll_number}`, path: `${entry.roll_number}.svg` })),
  ...Array.from({ length: blanks }, (_, index) => ({
    key: `blank-${index + 1}`,
    path: `blank.svg?serial=${index + 1}`,
  })),
]

function Sheets({ sitting, roster }: { sitting: Sitting; roster: Roster }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const blanks = useCount(MAX_BLANK)
  const names = sheetNames(roster, blanks.value)
  const sheets = useQueries({ queries: names.map((name) => sittingQueries.sheet(sitting.id, name.path)) })
  const ready = sheets.filter((sheet) => sheet.data !== undefined).length
  const failed = sheets.some((sheet) => sheet.isError)
  return (
    <>
      <style>{SHEET_PAGE_RULE}</style>
      <div className="card stack no-print">
        <p>{t('sheets.intro', { count: roster.roster.length, n: n(roster.roster.length) })}</p>
        <CountField
          label={t('sheets.blank')}
          hint={t('sheets.blank_hint', { max: n(MAX_BLANK) })}
          max={MAX_BLANK}
          count={blanks}
        />
        <Alert kind="info">{t('sheets.at_100')}</Alert>
        <PrintReadiness kind="sheets" ready={ready} total={names.length} failed={failed} />
      </div>
      <div className="sheets">
        {names.map((name, index) => {
          const svg = sheets[index]?.data
          return (
            <div key={name.key} className="sheets__page">
              {svg !== undefined && (
                <img
                  className="sheets__image"
                  src={svgDataUrl(svg)}
                  alt={
                    index < roster.roster.length
                      ? t('sheets.sheet_alt', {
                          roll: n(roster.roster[index]!.roll_number),
                          name: roster.roster[index]!.user.full_name || roster.roster[index]!.user.username,
                        })
                      : t('sheets.blank_alt', { serial: n(index - roster.roster.length + 1) })
                  }
                />
              )}
            </div>
          )
        })}
      </div>
    </>
  )
}

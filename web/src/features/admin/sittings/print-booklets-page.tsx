import { useQueries } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { CountField, PrintReadiness, useCount, WithRoster } from './print-parts'
import { SittingFrame } from './sitting-frame'
import { DEFAULT_BOOKLET_PAGES, sittingQueries, type Roster, type Sitting } from './sittings.api'
import './sittings.i18n'

/** Blank booklets and spare pages a sitting may print at once; the server numbers up to 9,999 of each. */
export const MAX_BLANK_BOOKLETS = 100
export const MAX_SPARE_PAGES = 200
/** A page fills the A4 sheet exactly, as an answer sheet does: the corner squares must land where the reader looks. */
const PAGE_RULE = '@page { size: A4; margin: 0; }'

/** One printed page: its React key, its name for the server (`booklets/{name}`) and what it is, for its alt text. */
export interface BookletPageName {
  key: string
  path: string
  what:
    | { kind: 'roster'; roll: number; name: string; page: number }
    | { kind: 'blank'; serial: number; page: number }
    | { kind: 'spare'; serial: number }
}

/** Every roster learner's pages in booklet order, then the blank booklets' pages, then the spare pages. */
export function bookletPageNames(roster: Roster, pages: number, blanks: number, spares: number): BookletPageName[] {
  const numbers = Array.from({ length: pages }, (_, index) => index + 1)
  const serials = (count: number) => Array.from({ length: count }, (_, index) => index + 1)
  return [
    ...roster.roster.flatMap((entry) =>
      numbers.map((page) => ({
        key: `roll-${entry.roll_number}-${page}`,
        path: `${entry.roll_number}.svg?page=${page}`,
        what: {
          kind: 'roster' as const,
          roll: entry.roll_number,
          name: entry.user.full_name || entry.user.username,
          page,
        },
      })),
    ),
    ...serials(blanks).flatMap((serial) =>
      numbers.map((page) => ({
        key: `blank-${serial}-${page}`,
        path: `blank.svg?serial=${serial}&page=${page}`,
        what: { kind: 'blank' as const, serial, page },
      })),
    ),
    ...serials(spares).map((serial) => ({
      key: `spare-${serial}`,
      path: `extra.svg?serial=${serial}`,
      what: { kind: 'spare' as const, serial },
    })),
  ]
}

/** /admin/sittings/{id}/print/booklets: each roster learner's written-answer booklet, blank booklets, spare pages. */
export function Component() {
  const { t } = useTranslation('sittings')
  return (
    <SittingFrame back="sitting" className="sittings-print" heading={(name) => t('booklets.title', { name })}>
      {(sitting) => (
        <WithRoster sitting={sitting}>{(roster) => <Booklets sitting={sitting} roster={roster} />}</WithRoster>
      )}
    </SittingFrame>
  )
}

function Booklets({ sitting, roster }: { sitting: Sitting; roster: Roster }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const perLearner = sitting.booklet_pages ?? DEFAULT_BOOKLET_PAGES
  const blanks = useCount(MAX_BLANK_BOOKLETS)
  const spares = useCount(MAX_SPARE_PAGES)
  const names = bookletPageNames(roster, perLearner, blanks.value, spares.value)
  const pages = useQueries({ queries: names.map((name) => sittingQueries.bookletPage(sitting.id, name.path)) })
  const ready = pages.filter((page) => page.data !== undefined).length
  const failed = pages.some((page) => page.isError)
  const alt = ({ what }: BookletPageName) =>
    what.kind === 'roster'
      ? t('booklets.page_alt', { roll: n(what.roll), name: what.name, page: n(what.page) })
      : what.kind === 'blank'
        ? t('booklets.blank_alt', { serial: n(what.serial), page: n(what.page) })
        : t('booklets.spare_alt', { serial: n(what.serial) })
  return (
    <>
      <style>{PAGE_RULE}</style>
      <div className="card stack no-print">
        <p>
          {t('booklets.intro', { count: roster.roster.length, n: n(roster.roster.length) })}{' '}
          {t('booklets.per_learner', { count: perLearner, n: n(perLearner) })}
        </p>
        <div className="sittings-form__row">
          <CountField
            label={t('booklets.blank')}
            hint={t('booklets.blank_hint', { max: n(MAX_BLANK_BOOKLETS) })}
            max={MAX_BLANK_BOOKLETS}
            count={blanks}
          />
          <CountField
            label={t('booklets.spare')}
            hint={t('booklets.spare_hint', { max: n(MAX_SPARE_PAGES) })}
            max={MAX_SPARE_PAGES}
            count={spares}
          />
        </div>
        <Alert kind="info">{t('sheets.at_100')}</Alert>
        <PrintReadiness kind="booklets" ready={ready} total={names.length} failed={failed} />
      </div>
      <div className="sheets">
        {names.map((name, index) => {
          const svg = pages[index]?.data
          return (
            <div key={name.key} className="sheets__page">
              {svg !== undefined && (
                // Drawn inline, not as an <img>: an image's SVG cannot use the page's web fonts, and the first page's
                // Nepali instructions need the app's Noto Sans Devanagari on a computer without a Devanagari font.
                // The SVG is our server's, every text in it escaped.
                <div
                  className="sheets__image sheets__inline"
                  role="img"
                  aria-label={alt(name)}
                  dangerouslySetInnerHTML={{ __html: svg }}
                />
              )}
            </div>
          )
        })}
      </div>
    </>
  )
}

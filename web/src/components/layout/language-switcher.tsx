import { useTranslation } from 'react-i18next'
import flagEn from '../../assets/flag-en.svg'
import flagNe from '../../assets/flag-ne.svg'
import { setLanguage, type Language } from '../../i18n/i18n'
import { useLanguage } from '../../i18n/use-bilingual'

const choices: { language: Language; flag: string; label: string }[] = [
  { language: 'en', flag: flagEn, label: 'English' },
  { language: 'ne', flag: flagNe, label: 'नेपाली' },
]

/** The nav's language switcher: shipped SVG flags (emoji flags render as letters on many phones). */
export function LanguageSwitcher() {
  const { t } = useTranslation('nav')
  const current = useLanguage()
  return (
    <div className="language-switcher" role="group" aria-label={t('language')}>
      {choices.map(({ language, flag, label }) => (
        <button
          key={language}
          type="button"
          className="language-switcher__button"
          aria-pressed={current === language}
          lang={language}
          onClick={() => setLanguage(language)}
        >
          <img src={flag} alt="" width={20} height={14} />
          <span>{label}</span>
        </button>
      ))}
    </div>
  )
}

/** The per-screen English / Nepali toggle of SPEC.md; it changes the same one language setting as the nav. */
export function LanguageToggle() {
  const { t } = useTranslation('nav')
  const current = useLanguage()
  return (
    <div className="language-toggle" role="group" aria-label={t('language')}>
      {choices.map(({ language, label }) => (
        <button
          key={language}
          type="button"
          aria-pressed={current === language}
          lang={language}
          onClick={() => setLanguage(language)}
        >
          {label}
        </button>
      ))}
    </div>
  )
}

import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LanguageToggle } from '../../components/layout/language-switcher'
import './quiz.i18n'

/**
 * The exam's heading. While an attempt is open on a phone, the site's navigation is folded away (quiz.css, by the
 * body's `exam-open`) and this header is compact: the title on one line, the language toggle and a Menu button
 * that shows the navigation again for a learner who must leave (issue 46).
 */
/** `lang`: the title's, when it is shown in the other language than the page's (a fallback). */
export function ExamHeader({ title, lang, open }: { title: string; lang?: string; open: boolean }) {
  const { t } = useTranslation('quiz')
  const [menu, setMenu] = useState(false)
  useEffect(() => {
    if (!open) return
    document.body.classList.add('exam-open')
    return () => document.body.classList.remove('exam-open')
  }, [open])
  useEffect(() => {
    document.body.classList.toggle('exam-nav-open', open && menu)
    return () => document.body.classList.remove('exam-nav-open')
  }, [open, menu])
  return (
    <div className="quiz__header">
      {open && (
        <button
          type="button"
          className="quiz__menu"
          aria-expanded={menu}
          aria-label={menu ? t('palette.menu_close') : t('palette.menu')}
          onClick={() => {
            setMenu((shown) => !shown)
            window.scrollTo({ top: 0 })
          }}
        >
          <span aria-hidden="true">☰</span>
        </button>
      )}
      <h1 className="quiz__title" lang={lang}>
        {title}
      </h1>
      <LanguageToggle />
    </div>
  )
}

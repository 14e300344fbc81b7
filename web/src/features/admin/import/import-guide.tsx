import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { LangRuns } from '../../../components/ui/lang-runs'
import { downloadTemplate, type TemplateKind } from './import.api'
import './import.i18n'

// The examples are content, not interface: both are shown in either language, as an institute's files hold both.
const exampleEn = `1. Which is the longest river of Nepal?
A. Bagmati
B. Karnali
C. Koshi
D. Gandaki
Answer: B
Topic: Geography`

const exampleNe = `१. नेपालको राजधानी कुन हो?
क. पोखरा
ख. काठमाडौं
ग. विराटनगर
घ. धरान
उत्तर: ख
विषय: भूगोल
व्याख्या: काठमाडौं नेपालको राजधानी हो।`

/** The templates to download and a short guide to the Word layout. */
export function ImportGuide() {
  const { t } = useTranslation('import')
  const [failed, setFailed] = useState(false)
  const [busy, setBusy] = useState<TemplateKind | null>(null)
  const download = async (kind: TemplateKind) => {
    setFailed(false)
    setBusy(kind)
    try {
      await downloadTemplate(kind)
    } catch {
      setFailed(true)
    } finally {
      setBusy(null)
    }
  }
  return (
    <div className="import-guide">
      <section className="card" aria-labelledby="import-templates">
        <h2 id="import-templates">{t('templates.title')}</h2>
        <p>
          <LangRuns text={t('templates.intro')} />
        </p>
        <p className="actions">
          <Button disabled={busy !== null} onClick={() => void download('xlsx')}>
            {t('templates.xlsx')}
          </Button>
          <Button disabled={busy !== null} onClick={() => void download('csv')}>
            {t('templates.csv')}
          </Button>
        </p>
        {failed && <Alert kind="error">{t('templates.failed')}</Alert>}
      </section>
      <section className="card" aria-labelledby="import-layout">
        <h2 id="import-layout">{t('guide.title')}</h2>
        <ul>
          <li>
            <LangRuns text={t('guide.numbered')} />
          </li>
          <li>
            <LangRuns text={t('guide.options')} />
          </li>
          <li>
            <LangRuns text={t('guide.answer')} />
          </li>
          <li>
            <LangRuns text={t('guide.optional')} />
          </li>
          <li>
            <LangRuns text={t('guide.fonts')} />
          </li>
          <li>
            <LangRuns text={t('guide.pictures')} />
          </li>
        </ul>
        <div className="import-examples">
          <figure>
            <figcaption>{t('guide.example_ne')}</figcaption>
            <pre lang="ne">{exampleNe}</pre>
          </figure>
          <figure>
            <figcaption>{t('guide.example_en')}</figcaption>
            <pre lang="en">{exampleEn}</pre>
          </figure>
        </div>
      </section>
    </div>
  )
}

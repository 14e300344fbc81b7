import { useTranslation } from 'react-i18next'
import { PlatformBankBrowser } from '../platform-bank/platform-bank-browser'
import '../../../i18n/platform.i18n'

// WEB.md "Institutes": the platform's bank as its admins browse it; a national mock's paper names these numbers.
export function Component() {
  const { t } = useTranslation('platform')
  return (
    <>
      <h1>{t('bank.title')}</h1>
      <p>{t('platform.bank.intro')}</p>
      <PlatformBankBrowser base="/platform/bank/questions/" />
    </>
  )
}

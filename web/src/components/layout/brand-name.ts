import { useTranslation } from 'react-i18next'
import { instituteName, useInstitute } from '../../lib/institute'

/** The name the header and the page title carry: the institute of this address, else the product's (development). */
export function useBrandName() {
  const { t, i18n } = useTranslation('nav')
  const institute = useInstitute()
  return institute ? instituteName(institute, i18n.language) : t('brand')
}

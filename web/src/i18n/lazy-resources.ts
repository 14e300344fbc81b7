import i18n from './i18n'

/**
 * The `institutions` namespace (attempts, statistics, learners) is only read on those admin screens: it loads
 * with them, in both languages at once (the switcher may change language on the page), and stays out of the
 * first screen's JavaScript budget.
 */
export async function loadInstitutionsTranslations() {
  if (i18n.hasResourceBundle('en', 'institutions')) return
  const [en, ne] = await Promise.all([
    import('./locales/en/institutions.json'),
    import('./locales/ne/institutions.json'),
  ])
  i18n.addResourceBundle('en', 'institutions', en.default)
  i18n.addResourceBundle('ne', 'institutions', ne.default)
}

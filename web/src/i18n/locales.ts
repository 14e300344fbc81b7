// Every namespace in both languages, for types and the locale tests. The app never imports this module's
// values: the shell's namespaces are in i18n.ts and each feature registers its own.
import enAdmin from './locales/en/admin.json'
import enAnswers from './locales/en/answers.json'
import enAuth from './locales/en/auth.json'
import enBank from './locales/en/bank.json'
import enCommon from './locales/en/common.json'
import enDaily from './locales/en/daily.json'
import enDashboard from './locales/en/dashboard.json'
import enImport from './locales/en/import.json'
import enInstitute from './locales/en/institute.json'
import enInstitutions from './locales/en/institutions.json'
import enLive from './locales/en/live.json'
import enMarking from './locales/en/marking.json'
import enNav from './locales/en/nav.json'
import enNotifications from './locales/en/notifications.json'
import enPayments from './locales/en/payments.json'
import enPlatform from './locales/en/platform.json'
import enPractice from './locales/en/practice.json'
import enProfile from './locales/en/profile.json'
import enProgress from './locales/en/progress.json'
import enQuiz from './locales/en/quiz.json'
import enResults from './locales/en/results.json'
import enSections from './locales/en/sections.json'
import enSittings from './locales/en/sittings.json'
import enWritten from './locales/en/written.json'
import neAdmin from './locales/ne/admin.json'
import neAnswers from './locales/ne/answers.json'
import neAuth from './locales/ne/auth.json'
import neBank from './locales/ne/bank.json'
import neCommon from './locales/ne/common.json'
import neDaily from './locales/ne/daily.json'
import neDashboard from './locales/ne/dashboard.json'
import neImport from './locales/ne/import.json'
import neInstitute from './locales/ne/institute.json'
import neInstitutions from './locales/ne/institutions.json'
import neLive from './locales/ne/live.json'
import neMarking from './locales/ne/marking.json'
import neNav from './locales/ne/nav.json'
import neNotifications from './locales/ne/notifications.json'
import nePayments from './locales/ne/payments.json'
import nePlatform from './locales/ne/platform.json'
import nePractice from './locales/ne/practice.json'
import neProfile from './locales/ne/profile.json'
import neProgress from './locales/ne/progress.json'
import neQuiz from './locales/ne/quiz.json'
import neResults from './locales/ne/results.json'
import neSections from './locales/ne/sections.json'
import neSittings from './locales/ne/sittings.json'
import neWritten from './locales/ne/written.json'

export const locales = {
  en: {
    common: enCommon,
    nav: enNav,
    auth: enAuth,
    dashboard: enDashboard,
    daily: enDaily,
    quiz: enQuiz,
    results: enResults,
    profile: enProfile,
    admin: enAdmin,
    payments: enPayments,
    institutions: enInstitutions,
    institute: enInstitute,
    platform: enPlatform,
    progress: enProgress,
    practice: enPractice,
    bank: enBank,
    sections: enSections,
    import: enImport,
    notifications: enNotifications,
    live: enLive,
    sittings: enSittings,
    marking: enMarking,
    written: enWritten,
    answers: enAnswers,
  },
  ne: {
    common: neCommon,
    nav: neNav,
    auth: neAuth,
    dashboard: neDashboard,
    daily: neDaily,
    quiz: neQuiz,
    results: neResults,
    profile: neProfile,
    admin: neAdmin,
    payments: nePayments,
    institutions: neInstitutions,
    institute: neInstitute,
    platform: nePlatform,
    progress: neProgress,
    practice: nePractice,
    bank: neBank,
    sections: neSections,
    import: neImport,
    notifications: neNotifications,
    live: neLive,
    sittings: neSittings,
    marking: neMarking,
    written: neWritten,
    answers: neAnswers,
  },
} as const

import { StrictMode } from 'react'
import { flushSync } from 'react-dom'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { createBrowserRouter } from 'react-router'
import { App } from './app/app'
import { routerReady } from './app/router-ready'
import { routes } from './app/routes'
import { initI18n, loadLanguage, storedLanguage } from './i18n/i18n'
import { writtenAttemptsHandedIn } from './features/quiz/written/handed-in'
import { pageInstitute, refreshInstitute } from './lib/institute'
import './styles.css'
// The visitor screens' own styles go with the base styles: the build inlines that one stylesheet in their HTML
// (vite.config.ts, decision 025), so the form paints styled from the first response and nothing waits for more CSS.
import './features/auth/auth.css'
import './components/ui/password-input.css'

// The offline worker (decision 019) is registered once the page has loaded, so its download never competes with
// the first screen's. Only the build has one (vite-plugin-pwa writes sw.js there).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined))
}

// Photos of written answers handed in before a reload still go (their code loads only when there are some).
window.addEventListener('load', () => {
  if (writtenAttemptsHandedIn(localStorage).length > 0)
    void import('./features/quiz/written/resume-uploads').then((module) => module.resumeUploads())
})

const container = document.getElementById('root')!
const language = storedLanguage()
const router = createBrowserRouter(routes)
const app = (
  <StrictMode>
    <App router={router} />
  </StrictMode>
)

// A visitor screen comes with the build's HTML (prerender.tsx): an English visitor's screen with no router state
// and no query. React takes it over (hydrates) when this page renders exactly that; anything else (Nepali chosen,
// a notice handed over in the router state, a query) renders here and replaces it, so hydration never mismatches.
const prerendered = container.firstElementChild !== null
// The build's header has no logo: an institute with one renders its own.
const sameAsBuilt =
  language === 'en' &&
  window.location.search === '' &&
  (window.history.state as { usr?: unknown } | null)?.usr == null &&
  !pageInstitute()?.logo

void Promise.all([loadLanguage(language), routerReady(router)]).then(() => {
  initI18n(language)
  if (prerendered && sameAsBuilt) return hydrateRoot(container, app)
  const root = createRoot(container)
  // Rendered before the mark that hid the built HTML from a Nepali reader comes off, so the English never shows.
  flushSync(() => root.render(app))
  document.documentElement.removeAttribute('data-render')
})

// A page the offline worker kept may predate a rename or a new colour: the server's word, once the app is up.
window.addEventListener('load', () => void refreshInstitute())

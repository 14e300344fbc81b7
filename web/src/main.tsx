// Only the Devanagari subset: Latin text keeps the system font, Nepali always has glyphs (no tofu boxes).
import '@fontsource/noto-sans-devanagari/devanagari-400.css'
import '@fontsource/noto-sans-devanagari/devanagari-600.css'
import '@fontsource/noto-sans-devanagari/devanagari-700.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app'
import { initI18n, loadLanguage, storedLanguage } from './i18n/i18n'
import './styles.css'

// The offline worker (decision 019) is registered once the page has loaded, so its download never competes with
// the first screen's. Only the build has one (vite-plugin-pwa writes sw.js there).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined))
}

const language = storedLanguage()
void loadLanguage(language).then(() => {
  initI18n(language)
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
})

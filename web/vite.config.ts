import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa'
import { defineConfig } from 'vitest/config'
import enNav from './src/i18n/locales/en/nav.json'
import neNav from './src/i18n/locales/ne/nav.json'

// The install manifest (decision 019): one per language, the same app (`id`) under an English or a Nepali name.
// The page links the one of the current language (i18n.ts), so "Add to Home screen" names the app in it.
const manifest: Partial<ManifestOptions> = {
  id: '/',
  name: enNav.brand,
  short_name: enNav.brand,
  description: 'Timed exam practice in English and Nepali.',
  lang: 'en',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  theme_color: '#1d4ed8',
  background_color: '#ffffff',
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
    { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
}
const nepaliManifest = {
  ...manifest,
  name: neNav.brand,
  short_name: neNav.brand,
  description: 'अङ्ग्रेजी र नेपालीमा समयबद्ध परीक्षा अभ्यास।',
  lang: 'ne',
}

/** Writes the Nepali manifest beside the English one vite-plugin-pwa writes (it makes only one). */
function nepaliManifestFile(): Plugin {
  return {
    name: 'quiz-nepali-manifest',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'manifest-ne.webmanifest',
        source: JSON.stringify(nepaliManifest),
      })
    },
  }
}

export default defineConfig({
  plugins: [
    react(),
    nepaliManifestFile(),
    VitePWA({
      // No skipWaiting: a new version waits until every tab of the app is closed, so an exam in progress never
      // has its code swapped (or its page reloaded) under it. No prompt either: the next opening gets it.
      registerType: 'prompt',
      // main.tsx registers the worker itself after the page has loaded (nothing added to the first screen).
      injectRegister: false,
      manifest,
      workbox: {
        // The app shell: every page's code and styles (the quiz screen is a lazy chunk and must open offline),
        // the Devanagari fonts (woff2 only: every browser with service workers reads it) and the icons.
        globPatterns: ['**/*.{js,css,html,woff2,png,svg,webmanifest}'],
        // A reload offline gets index.html from the cache; the API never (its responses are never cached).
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        // The first visit's page is controlled as soon as the worker is ready, so its lazy chunks load offline.
        clientsClaim: true,
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    target: 'es2022',
    // The size report (scripts/report-size.mjs) reads the manifest to find what the first screen loads.
    manifest: true,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
})

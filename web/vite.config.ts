import react from '@vitejs/plugin-react'
import type { HtmlTagDescriptor, Plugin } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
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

/**
 * Lists a lazy page's chunk, its imports and its CSS in index.html, so the browser fetches them with the entry
 * instead of after it: on a 400 ms round trip the visitor's first screen is one round trip sooner. A signed-in
 * learner fetches these few kilobytes too, but only when the cache is empty (they are immutable).
 */
function preloadPage(source: string): Plugin {
  return {
    name: 'preload-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return
        const chunks = new Map(
          Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])),
        )
        const page = [...chunks.values()].find((chunk) => chunk.facadeModuleId?.endsWith(source))
        if (!page) throw new Error(`preload-page: no chunk for ${source}`)
        const files = new Set<string>()
        const visit = (fileName: string) => {
          if (files.has(fileName) || html.includes(`/${fileName}"`)) return
          files.add(fileName)
          chunks.get(fileName)?.imports.forEach(visit)
        }
        visit(page.fileName)
        const tags: HtmlTagDescriptor[] = []
        for (const fileName of files) {
          tags.push({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head',
          })
          // Fetched now, applied by Vite's loader when the page's code runs (so the cascade keeps its order).
          for (const css of chunks.get(fileName)?.viteMetadata?.importedCss ?? [])
            tags.push({
              tag: 'link',
              attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `/${css}` },
              injectTo: 'head',
            })
        }
        return tags
      },
    },
  }
}

export default defineConfig({
  plugins: [
    react(),
    // A visitor's first screen; a learner with a session is a repeat visitor, with these files in the cache.
    preloadPage('src/features/auth/login-page.tsx'),
    // Brotli and gzip files beside each asset, made once at build time: the server sends them to browsers that
    // accept them (@fastify/static preCompressed). On a 400 kbit/s connection this is most of the first visit.
    compression({
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
      exclude: [/\.vite\//],
      logLevel: 'silent',
    }),
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

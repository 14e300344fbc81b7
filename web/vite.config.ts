import { availableParallelism } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import react from '@vitejs/plugin-react'
import type { Plugin, Rolldown, UserConfig } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa'
import { defineConfig } from 'vitest/config'
import enNav from './src/i18n/locales/en/nav.json'
import { pictureCaching } from './src/lib/picture-cache'
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

/** What the build's server-side entry (src/prerender.tsx, built first into PRERENDER_DIR) exports. */
interface Prerender {
  visitorScreens: Record<string, string>
  renderScreen(path: string): Promise<string>
}
const PRERENDER_DIR = '.prerender'
// Marks the page before its first paint when the saved language (i18n.ts: LANGUAGE_KEY) is Nepali; styles.css
// hides #root then, and main.tsx clears the mark once it has rendered in Nepali.
const NEPALI_READER_SCRIPT =
  "try{localStorage.getItem('language')==='ne'&&document.documentElement.setAttribute('data-render','client')}catch(e){}"

/**
 * The link tags that fetch a lazy page's chunk, the chunks it imports and its CSS with the HTML, instead of one
 * round trip (400 ms on a slow line) after the entry has run and asked for them. `applyCss` for a page whose HTML is
 * in the file: its styles must apply at the first paint. Otherwise they are only fetched, and Vite's loader applies
 * them when the page's code runs (so the cascade keeps its order).
 */
function pageLinks(bundle: Rolldown.OutputBundle, source: string, html: string, { applyCss }: { applyCss: boolean }) {
  const chunks = new Map(
    Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])),
  )
  const page = [...chunks.values()].find((chunk) => chunk.facadeModuleId?.endsWith(source))
  if (!page) throw new Error(`visitor screens: no chunk for ${source}`)
  const links: string[] = []
  const seen = new Set<string>()
  const visit = (fileName: string) => {
    if (seen.has(fileName) || html.includes(`/${fileName}"`)) return
    seen.add(fileName)
    links.push(`<link rel="modulepreload" crossorigin href="/${fileName}">`)
    for (const css of chunks.get(fileName)?.viteMetadata?.importedCss ?? [])
      links.push(
        applyCss
          ? `<link rel="stylesheet" crossorigin href="/${css}">`
          : `<link rel="preload" as="style" crossorigin href="/${css}">`,
      )
    chunks.get(fileName)?.imports.forEach(visit)
  }
  visit(page.fileName)
  return links.join('\n    ')
}

/**
 * The visitor screens (decision 025). Writes `login.html` and the others: index.html with the screen's HTML in
 * #root, rendered by the server-side build of the app, and the links that fetch that screen's code and styles with
 * it. The server sends one for its path (`/login`), as the offline worker does (Workbox tries `<path>.html`); the
 * browser paints the form from the first response and main.tsx hydrates it. index.html itself (every other path,
 * `/` included, where a visitor is sent on to /login) fetches the login screen's code with the entry: a signed-in
 * learner fetches those few kilobytes too, but only when the cache is empty (they are immutable).
 */
function visitorScreens(): Plugin {
  return {
    name: 'visitor-screens',
    apply: 'build',
    // After index.html has its scripts and preloads; before the compression and the worker's precache list.
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const index = bundle['index.html']
      if (index?.type !== 'asset') throw new Error('visitor screens: no index.html in the bundle')
      const built = pathToFileURL(path.resolve(PRERENDER_DIR, 'prerender.js')).href
      const { visitorScreens, renderScreen } = (await import(built)) as Prerender
      const html = String(index.source)
      const root = '<div id="root"></div>'
      if (!html.includes(root) || !html.includes('</head>')) throw new Error('visitor screens: unexpected index.html')
      const withLinks = (links: string) => html.replace('</head>', `  ${links}\n  </head>`)
      // The entry's stylesheet, in the screens' HTML itself: their first paint waits for no other request.
      const entryCss = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/.exec(html)
      const css = entryCss && bundle[entryCss[1]!]
      if (!entryCss || css?.type !== 'asset') throw new Error('visitor screens: no stylesheet in index.html')
      // Before the first paint, a reader who chose Nepali must not see the English HTML: this hides it until
      // main.tsx has rendered the screen in Nepali. Inline (a file would cost a round trip before the paint); the
      // server's CSP admits it by its hash, read from the build.
      const hideForNepali = `<script>${NEPALI_READER_SCRIPT}</script>`
      const inlineCss = (page: string) =>
        page.replace(entryCss[0], () => `${hideForNepali}<style>${String(css.source)}</style>`)
      index.source = withLinks(pageLinks(bundle, visitorScreens['/login']!, html, { applyCss: false }))
      for (const [screen, source] of Object.entries(visitorScreens))
        this.emitFile({
          type: 'asset',
          fileName: `${screen.slice(1)}.html`,
          source: inlineCss(withLinks(pageLinks(bundle, source, html, { applyCss: true }))).replace(
            root,
            `<div id="root">${await renderScreen(screen)}</div>`,
          ),
        })
    },
  }
}

/**
 * Test files that run in a window of their own: the prerender renders on the server and leaves React's renderer
 * state behind (its act environment, a second renderer).
 */
const alone = ['src/prerender.test.tsx']

export default defineConfig(({ isSsrBuild }) => ({
  // The build's first step (`vite build --ssr`): the app as a Node module that renders the visitor screens.
  ...(isSsrBuild && {
    plugins: [react()],
    build: {
      ssr: 'src/prerender.tsx',
      outDir: PRERENDER_DIR,
      target: 'node20',
      emptyOutDir: true,
      copyPublicDir: false,
    },
  }),
  ...(!isSsrBuild && clientConfig),
}))

const clientConfig = {
  plugins: [
    react(),
    visitorScreens(),
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
        // Except KaTeX, which only the admin's question form loads for its maths preview (docs/decisions/028):
        // learners' workers would otherwise fetch its 86 KB for nothing.
        globIgnores: ['**/tex-preview-*.js'],
        // A reload offline gets index.html from the cache; the API never (its responses are never cached, but pictures).
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        // The one exception: question pictures, which never change, kept for an exam that goes offline.
        runtimeCaching: [pictureCaching],
        // The first visit's page is controlled as soon as the worker is ready, so its lazy chunks load offline.
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        // Web pushes (live-mock reminders, results): the worker shows them and opens their link.
        importScripts: ['push-worker.js'],
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
    // A loaded CI machine can take several seconds over a screen with many fields; no test asserts a time.
    testTimeout: 15_000,
    // Vitest's default leaves a core idle (one worker on a two-core CI machine): docs/decisions/058-test-files-two-at-a-time.md.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      // Building a jsdom window and loading React for each file cost more than the tests themselves (7 of CI's
      // minutes): the screens' files share a worker's window and modules, each cleaned after every test by
      // src/test/setup.ts (docs/decisions/052-web-tests-share-a-window.md).
      {
        extends: true,
        test: { name: 'screens', include: ['src/**/*.test.{ts,tsx}'], exclude: alone, isolate: false },
      },
      { extends: true, test: { name: 'alone', include: alone } },
    ],
  },
} satisfies UserConfig

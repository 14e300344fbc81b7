import react from '@vitejs/plugin-react'
import type { HtmlTagDescriptor, Plugin } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
import { defineConfig } from 'vitest/config'

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

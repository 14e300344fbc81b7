import fastifyStatic from '@fastify/static'
import type { InstituteBranding } from '@quiz/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { brandedPageCache, brandPage, encodePage, type EncodedPage } from './branded-pages'

/** The institute a page is served for, or null on the platform's own address (the built pages as they are). */
export type PageBranding = (request: FastifyRequest) => Promise<InstituteBranding | null>

const MANIFESTS = { 'manifest.webmanifest': 'en', 'manifest-ne.webmanifest': 'ne' } as const

/** The install manifest of the institute (WEB.md "Institutes"): its name, colour and logo on the home screen. */
function brandManifest(built: string, language: 'en' | 'ne', branding: InstituteBranding) {
  const manifest = JSON.parse(built) as { icons?: object[] }
  const name = (language === 'ne' && branding.name.ne) || branding.name.en
  const logo = branding.logo
  return JSON.stringify({
    ...manifest,
    name,
    short_name: name,
    theme_color: branding.colour,
    icons: logo
      ? [{ src: logo.url, sizes: `${logo.width}x${logo.height}`, type: 'image/webp' }, ...(manifest.icons ?? [])]
      : manifest.icons,
  })
}

function send(request: FastifyRequest, reply: FastifyReply, page: EncodedPage, type: string) {
  const accepts = String(request.headers['accept-encoding'] ?? '')
  reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').type(type)
  if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(page.br)
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(page.gzip)
  return reply.send(page.plain)
}

/**
 * The built web app: hashed assets from disk as built (pre-compressed), and the pages and manifests, which carry
 * the institute of the address, from memory, branded once per institute and kept (brandedPageCache). Other GETs
 * outside /api get index.html, so client routes survive a reload; a visitor screen's page without a query.
 */
export function registerWebApp(app: FastifyInstance, webDist: string, brandingOf: PageBranding) {
  const indexFile = path.join(webDist, 'index.html')
  if (!existsSync(indexFile)) return
  const pages = new Map<string, string>()
  for (const file of readdirSync(webDist).filter((name) => name.endsWith('.html')))
    pages.set(file, readFileSync(path.join(webDist, file), 'utf8'))
  const manifests = new Map<string, string>()
  for (const file of Object.keys(MANIFESTS))
    if (existsSync(path.join(webDist, file))) manifests.set(file, readFileSync(path.join(webDist, file), 'utf8'))
  const cache = brandedPageCache()

  app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    preCompressed: true,
    globIgnore: ['*.html', '*.html.*', ...Object.keys(MANIFESTS).flatMap((file) => [file, `${file}.*`])],
    setHeaders(reply, filePath) {
      // Vite puts a content hash in every asset name: those never change. Anything else is checked every time.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`)
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    },
  })

  async function serve(request: FastifyRequest, reply: FastifyReply, file: string) {
    const branding = await brandingOf(request)
    const built = pages.get(file) ?? manifests.get(file)!
    const manifest = file in MANIFESTS
    const key = `${file}\n${branding ? JSON.stringify(branding) : ''}`
    const page = cache(key, () => {
      if (!branding) return encodePage(built)
      if (manifest) return encodePage(brandManifest(built, MANIFESTS[file as keyof typeof MANIFESTS], branding))
      return encodePage(brandPage(built, branding))
    })
    return send(request, reply, page, manifest ? 'application/manifest+json' : 'text/html; charset=utf-8')
  }

  for (const file of manifests.keys()) app.get(`/${file}`, { schema: { hide: true } }, (r, s) => serve(r, s, file))
  const pageOf = (url: string) => {
    if (url === '/') return 'index.html'
    const name = url.slice(1)
    if (pages.has(name)) return name
    return pages.has(`${name}.html`) ? `${name}.html` : 'index.html'
  }
  app.get('/', { schema: { hide: true } }, (request, reply) => serve(request, reply, 'index.html'))
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    if (request.url.startsWith('/api')) return reply.callNotFound()
    return serve(request, reply, pageOf(request.url))
  })
}

// Question pictures offline (API.md "Pictures in questions": `/api/pictures/{hash}.webp` never changes).

/** The service worker's cache of question pictures. */
export const PICTURE_CACHE = 'question-pictures'

/**
 * The worker's rule for pictures (Workbox runtime caching, vite.config.ts): cache first, as a picture's address
 * names its content. Bounded: a 100-question paper holds about 20 pictures of at most 150 KB (API.md's budget), so
 * 400 of them is many papers; a picture unused for 60 days goes. `urlPattern` is copied into the worker as source,
 * so it names nothing outside itself.
 */
export const pictureCaching = {
  urlPattern: ({ url }: { url: URL }) => url.pathname.startsWith('/api/pictures/'),
  handler: 'CacheFirst' as const,
  options: {
    cacheName: PICTURE_CACHE,
    expiration: { maxEntries: 400, maxAgeSeconds: 60 * 24 * 60 * 60, purgeOnQuotaError: true },
    cacheableResponse: { statuses: [200] },
  },
}

/**
 * Fetches a picture to the end, so it is on the device: in the worker's cache when a worker controls the page,
 * else in the browser's own (the response is `immutable` for a year).
 */
export async function keepPicture(url: string): Promise<void> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`picture ${url}: ${response.status}`)
  await response.blob()
}

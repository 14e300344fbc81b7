// Loaded into the offline worker (vite.config.ts, workbox.importScripts): shows the server's web pushes
// (contracts PushMessage: {kind, text: {en, ne}, link, lang}) and opens their link when tapped.
/* global self */
const BRAND = { en: 'Quiz Practice', ne: 'क्विज अभ्यास' } // nav.json's "brand" in each language

self.addEventListener('push', (event) => {
  let message
  try {
    message = event.data ? event.data.json() : null
  } catch {
    message = null
  }
  if (!message || !message.text) return
  const lang = message.lang === 'ne' ? 'ne' : 'en'
  const body = (lang === 'ne' && message.text.ne) || message.text.en
  event.waitUntil(
    self.registration.showNotification(BRAND[lang], {
      body,
      lang,
      icon: '/icons/icon-192.png',
      tag: message.kind,
      data: { link: message.link || '/' },
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const link = (event.notification.data && event.notification.data.link) || '/'
  const url = new URL(link, self.location.origin).href
  // A tab already showing the link is focused; otherwise a new one opens. An open tab is never navigated: it may
  // hold an exam in progress.
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const showing = windows.find((client) => client.url === url)
      return showing ? showing.focus() : self.clients.openWindow(url)
    }),
  )
})

import type { InstituteBranding } from '@quiz/contracts'
import { useSyncExternalStore } from 'react'

// WEB.md "Institutes": every screen carries the institute of its address. The server writes its branding into the
// page it serves (server/src/http/branded-pages.ts); a page the offline worker kept from an earlier visit may be
// older than a rename, so the app also asks for it once it has started, and repaints when it changed.

let current: InstituteBranding | null = readFromPage()
const listeners = new Set<() => void>()

function readFromPage(): InstituteBranding | null {
  // The build renders the visitor screens without a document (prerender.tsx): the product's name there.
  if (typeof document === 'undefined') return null
  const content = document.querySelector('meta[name="institute"]')?.getAttribute('content')
  if (!content) return null
  try {
    return JSON.parse(content) as InstituteBranding
  } catch {
    return null
  }
}

/** The institute of this address as the page came with it; null where the page has none (development, the platform). */
export const pageInstitute = () => current

/** The institute of this address, kept in step with `refreshInstitute`. */
export const useInstitute = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => current,
    () => current,
  )

/** An institute's name in the reader's language; its English one where it has no Nepali name. */
export const instituteName = (institute: Pick<InstituteBranding, 'name'>, language: string) =>
  (language === 'ne' && institute.name.ne) || institute.name.en

// Loaded only to repaint (rare): the first screen's code stays as small as it can (web/scripts/report-size.mjs).
async function paint(institute: InstituteBranding) {
  const { brandPalette, paletteStyle } = await import('@quiz/contracts/rules/brand-colours')
  const palette = brandPalette(institute.colour)
  let style = document.getElementById('institute-colours')
  if (!style) {
    style = document.createElement('style')
    style.id = 'institute-colours'
    document.head.append(style)
  }
  style.textContent = paletteStyle(palette)
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', palette.header)
}

/** Asks the server for the institute's branding, and repaints the app if it is not what the page came with. */
export async function refreshInstitute() {
  let fresh: InstituteBranding
  try {
    const response = await fetch('/api/institute/', { headers: { accept: 'application/json' } })
    if (!response.ok) return
    fresh = (await response.json()) as InstituteBranding
  } catch {
    return // Offline: the page's own branding stands.
  }
  if (JSON.stringify(fresh) === JSON.stringify(current)) return
  await showInstitute(fresh)
}

/** Shows `institute` on every screen from now on (null: the product's name, as on the platform's address). */
export async function showInstitute(institute: InstituteBranding | null) {
  current = institute
  for (const listener of listeners) listener()
  if (institute) await paint(institute)
}

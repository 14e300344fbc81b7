import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useMatches } from 'react-router'
import { useBrandName } from './brand-name'

/**
 * A route's `handle` may name its screen (a translation key, `ns:key`) where the page's heading alone does not say
 * what the screen is: the report card's heading is the quiz's title.
 */
export interface ScreenHandle {
  screen?: string
}

const HEADING_WAIT_MS = 10_000

/**
 * Every screen's title is its name and heading in the current language ("Report card: Kharidar Mock 1 — Quiz
 * Practice"), kept in step with the heading as its data loads or the language changes. On moving to another screen,
 * focus goes to the new heading, so a screen reader announces where the learner is instead of staying on the link
 * that was followed (or falling back to the top of the page when that link went with the old screen).
 */
export function useScreenTitle() {
  const { t } = useTranslation('nav')
  const { pathname } = useLocation()
  const matches = useMatches()
  const screenKey = [...matches].reverse().find((match) => (match.handle as ScreenHandle | undefined)?.screen)
    ?.handle as ScreenHandle | undefined
  const screen = screenKey?.screen ? t(screenKey.screen as never) : ''
  const brand = useBrandName()
  const firstScreen = useRef(true)

  useEffect(() => {
    const main = document.getElementById('main')
    if (!main) return
    let focusPending = !firstScreen.current
    firstScreen.current = false

    const update = () => {
      const heading = main.querySelector('h1')
      const text = heading?.textContent?.trim() ?? ''
      const name = screen && text && text !== screen ? `${screen}: ${text}` : screen || text
      document.title = name ? `${name} — ${brand}` : brand
      if (focusPending && heading && !focusIsOnTheNewScreen(main)) {
        focusPending = false
        heading.tabIndex = -1
        heading.focus()
      }
    }
    update()
    const observer = new MutationObserver(update)
    observer.observe(main, { childList: true, subtree: true, characterData: true })
    // The heading of a screen that never loads does not take focus later, when the learner is elsewhere.
    const stopFocus = setTimeout(() => (focusPending = false), HEADING_WAIT_MS)
    return () => {
      observer.disconnect()
      clearTimeout(stopFocus)
    }
  }, [pathname, screen, brand])
}

/** A learner who has already moved into the new screen (a field, a button) keeps focus where they put it. */
function focusIsOnTheNewScreen(main: HTMLElement) {
  const active = document.activeElement
  return active !== null && active !== main && active !== document.body && main.contains(active)
}

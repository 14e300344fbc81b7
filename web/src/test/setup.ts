import '@testing-library/jest-dom/vitest'
// jsdom has no IndexedDB; the quiz screen keeps the attempt's paper there (decision 019).
import 'fake-indexeddb/auto'
import { onlineManager } from '@tanstack/react-query'
import { cleanup, configure } from '@testing-library/react'
import { clear, createStore } from 'idb-keyval'
import { afterEach, beforeAll, beforeEach, vi } from 'vitest'
import { loadLanguage } from '../i18n/i18n'
import { showInstitute } from '../lib/institute'

// A loaded CI machine can take longer than the default 1 s to settle a screen.
configure({ asyncUtilTimeout: 4000 })

// Screens are rendered in Nepali at once, as the app does after main.tsx has loaded the Nepali shell texts.
beforeAll(() => loadLanguage('ne'))

// What the app keeps in IndexedDB (the offline attempt and the live paper; written pages not yet sent). The screens'
// files share a window and its fake IndexedDB: an attempt one file's exam kept (the fixtures' quiz 7, attempt 42)
// opened in the next file's exam screen in its place (written-exam.test.tsx, only in the full run).
const keptStores = [createStore('quiz-offline', 'attempts'), createStore('quiz-written-pages', 'pages')]

beforeEach(async () => {
  localStorage.clear()
  await Promise.all(keptStores.map((store) => clear(store)))
  // A stray console.error (a React warning, an unhandled failure) fails the test.
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error called: ${args.map(String).join(' ')}`)
  })
})

// Screens' test files share a window and its modules (vite.config.ts): each test leaves them as it found them.
afterEach(async () => {
  cleanup()
  // A screen that saved an institute's settings repaints every later screen with its name (settings-page.test.tsx).
  await showInstitute(null)
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  vi.useRealTimers()
  // A test that went offline leaves React Query's online state behind, which would pause every later query.
  onlineManager.setOnline(true)
})

import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, beforeEach, vi } from 'vitest'

// A loaded CI machine can take longer than the default 1 s to settle a screen.
configure({ asyncUtilTimeout: 4000 })

beforeEach(() => {
  localStorage.clear()
  // A stray console.error (a React warning, an unhandled failure) fails the test.
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error called: ${args.map(String).join(' ')}`)
  })
})

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

import { act, StrictMode } from 'react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { createBrowserRouter } from 'react-router'
import { App } from './app/app'
import { routerReady } from './app/router-ready'
import { routes } from './app/routes'
import { renderScreen, visitorScreens } from './prerender'

// The build writes these screens' HTML (decision 025) and main.tsx hydrates it: React must take over the very
// nodes the browser painted, with no mismatch (which React would repair by rendering the screen again).
describe('the visitor screens rendered at build time', () => {
  let root: Root | undefined
  afterEach(() => {
    act(() => root?.unmount())
    document.body.replaceChildren()
  })

  it.each(Object.keys(visitorScreens))('%s hydrates without a mismatch', async (path) => {
    const html = await renderScreen(path)
    expect(html).toContain('class="card auth-card"')
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const painted = container.querySelector('.auth-card')
    const built = document.createElement('div')
    built.innerHTML = html

    // The build renders in Node and the browser hydrates; here both run in one process, where React's development
    // build notices the static renderer's contexts and the client's. Any other error still fails the test.
    const failOnError = console.error
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).startsWith('Detected multiple renderers concurrently rendering')) failOnError(...args)
    })
    // What a reader types before React arrives must still be there after it (a slow phone shows the form seconds
    // before it hydrates).
    const fields = [...container.querySelectorAll<HTMLInputElement>('input:not([type="checkbox"])')]
    fields.forEach((field, index) => (field.value = `typed${index}`))
    window.history.replaceState(null, '', path)
    const router = createBrowserRouter(routes)
    await routerReady(router)
    const recovered: unknown[] = []
    await act(async () => {
      root = hydrateRoot(
        container,
        <StrictMode>
          <App router={router} />
        </StrictMode>,
        { onRecoverableError: (error) => recovered.push(error) },
      )
    })

    expect(recovered).toEqual([])
    expect(container.querySelector('.auth-card')).toBe(painted)
    expect(fields.map((field) => field.value)).toEqual(fields.map((_, index) => `typed${index}`))
    // The built form cannot be submitted by the browser before React handles it; after hydration it can.
    for (const button of built.querySelectorAll('button[type="submit"]')) expect(button).toBeDisabled()
    for (const button of container.querySelectorAll('button[type="submit"]')) expect(button).toBeEnabled()
  })
})

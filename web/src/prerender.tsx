// The build's second entry (vite.config.ts, `vite build --ssr`): the visitor screens' HTML, rendered at build time
// with react-dom/static, for the client build to write as login.html and the others. A first visit paints the form
// from the first response; main.tsx hydrates it when the page would render the same (decision 025).
import { StrictMode } from 'react'
import { prerender } from 'react-dom/static'
import { createMemoryRouter } from 'react-router'
import { App } from './app/app'
import { routerReady } from './app/router-ready'
import { routes } from './app/routes'
import { initI18n } from './i18n/i18n'
import { paths } from './lib/paths'

/** The screens someone without a session opens first, and their page modules: each becomes `<path>.html`. */
export const visitorScreens: Record<string, string> = {
  [paths.login()]: 'src/features/auth/login-page.tsx',
  [paths.register()]: 'src/features/auth/register-page.tsx',
  [paths.forgotPassword()]: 'src/features/auth/forgot-password-page.tsx',
  [paths.resetPassword()]: 'src/features/auth/reset-password-page.tsx',
}

// The static HTML is English, the default: a learner who chose Nepali gets the page rendered in it (main.tsx).
initI18n('en')

export async function renderScreen(path: string): Promise<string> {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  await routerReady(router)
  const { prelude } = await prerender(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  )
  return new Response(prelude).text()
}

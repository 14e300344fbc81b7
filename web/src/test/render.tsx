import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { MemoryRouter } from 'react-router'
import i18n, { initI18n, type Language } from '../i18n/i18n'

/** Renders with a fresh QueryClient (no retries), a MemoryRouter and i18n in the chosen language. */
export function renderWithProviders(
  ui: ReactElement,
  { language = 'en', route = '/' }: { language?: Language; route?: string } = {},
) {
  if (!i18n.isInitialized) initI18n(language)
  else void i18n.changeLanguage(language)
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  )
}

import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query'
import { useContext, type ComponentType, type ReactNode } from 'react'
import { Outlet } from 'react-router'
import { createQueryClient } from './query-client'

// TanStack Query is not part of the visitor's first screen (decision 025): the screens that read or write through it
// load this module, and with it the app's one query client, shared by every screen (one cache).
const queryClient = createQueryClient()

/** Provides the app's query client, unless one is already provided above (the signed-in routes, or a test's own). */
export function WithQueries({ children }: { children: ReactNode }) {
  const provided = useContext(QueryClientContext)
  return provided ? children : <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
}

/** A public screen's route `Component` whose calls go through TanStack Query, which comes with it (the login screen does without). */
export function withQueries(Screen: ComponentType) {
  return function Component() {
    return (
      <WithQueries>
        <Screen />
      </WithQueries>
    )
  }
}

/** The route around every signed-in screen (routes.tsx). */
export function QueriesRoute() {
  return (
    <WithQueries>
      <Outlet />
    </WithQueries>
  )
}

import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { RouterProvider, type createBrowserRouter } from 'react-router'
import { createQueryClient } from '../api/query-client'

/** The browser's router in the app; a memory router when the build renders a visitor screen (prerender.tsx). */
export type AppRouter = ReturnType<typeof createBrowserRouter>

export function App({ router }: { router: AppRouter }) {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  )
}

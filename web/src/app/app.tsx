import { RouterProvider, type createBrowserRouter } from 'react-router'

/** The browser's router in the app; a memory router when the build renders a visitor screen (prerender.tsx). */
export type AppRouter = ReturnType<typeof createBrowserRouter>

// No query client here: the screens that use TanStack Query provide it (api/with-queries.tsx), so the visitor's
// first screen does not download it.
export function App({ router }: { router: AppRouter }) {
  return <RouterProvider router={router} />
}

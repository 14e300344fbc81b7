import { lazy, Suspense, type ComponentProps } from 'react'

const Loaded = lazy(() => import('./not-a-member'))

/** "Not a member here", fetched only when a sign-in is refused so: rare, and the first screen stays small. */
export function NotAMember(props: ComponentProps<typeof Loaded>) {
  return (
    <Suspense fallback={null}>
      <Loaded {...props} />
    </Suspense>
  )
}

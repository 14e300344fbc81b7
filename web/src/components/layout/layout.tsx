import { Outlet } from 'react-router'
import { useScreenTitle } from './screen-title'
import { TopNav } from './top-nav'

export function Layout() {
  useScreenTitle()
  return (
    <>
      <TopNav />
      <main id="main" className="page" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  )
}

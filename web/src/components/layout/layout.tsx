import { Outlet } from 'react-router'
import { TopNav } from './top-nav'

export function Layout() {
  return (
    <>
      <TopNav />
      <main id="main" className="page" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  )
}

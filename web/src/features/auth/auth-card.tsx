import type { ReactNode } from 'react'
import './auth.css'

/** The card every auth screen sits in, named by its heading. */
export function AuthCard({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby={id}>
        <h1 id={id}>{title}</h1>
        {children}
      </section>
    </div>
  )
}

import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../../lib/paths'
import { MyInstitutes } from './my-institutes'

/**
 * The avatar (first letter of the username) and its panel: My Profile, Logout and, for a learner of several
 * institutes, My institutes. A disclosure rather than an ARIA
 * menu: two ordinary controls reached by Tab need no arrow-key model, and a screen reader announces them as what they
 * are. Closes on an outside click, and on Escape with focus back on the avatar.
 */
export function UserMenu({
  username,
  onLogout,
  platform = false,
}: {
  username: string
  onLogout: () => void
  /** A platform session: its address answers no profile or memberships (API.md "Platform admins"), only Logout. */
  platform?: boolean
}) {
  const { t } = useTranslation('nav')
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const toggle = useRef<HTMLButtonElement>(null)
  const panelId = useId()

  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      toggle.current?.focus()
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  return (
    <div className="user-menu" ref={root}>
      {/* The name starts with the username, so the letter shown is part of it (WCAG 2.5.3, label in name). */}
      <button
        ref={toggle}
        type="button"
        className="user-menu__avatar"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={t('user_menu', { username })}
        onClick={() => setOpen((value) => !value)}
      >
        {username.charAt(0).toUpperCase()}
      </button>
      {open && (
        <div className="user-menu__panel" id={panelId}>
          <p className="user-menu__name">{username}</p>
          {!platform && (
            <Link to={paths.profile()} onClick={() => setOpen(false)}>
              {t('my_profile')}
            </Link>
          )}
          <button
            type="button"
            onClick={() => {
              setOpen(false)
              onLogout()
            }}
          >
            {t('logout')}
          </button>
          {!platform && <MyInstitutes />}
        </div>
      )}
    </div>
  )
}

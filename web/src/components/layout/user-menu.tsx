import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../../lib/paths'

/** The avatar (first letter of the username) and its menu: My Profile and Logout. Closes on an outside click or Escape. */
export function UserMenu({ username, onLogout }: { username: string; onLogout: () => void }) {
  const { t } = useTranslation('nav')
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false)
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
      <button
        type="button"
        className="user-menu__avatar"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('user_menu', { username })}
        onClick={() => setOpen((value) => !value)}
      >
        {username.charAt(0).toUpperCase()}
      </button>
      {open && (
        <div className="user-menu__panel" role="menu">
          <p className="user-menu__name">{username}</p>
          <Link role="menuitem" to={paths.profile()} onClick={() => setOpen(false)}>
            {t('my_profile')}
          </Link>
          <button
            role="menuitem"
            type="button"
            onClick={() => {
              setOpen(false)
              onLogout()
            }}
          >
            {t('logout')}
          </button>
        </div>
      )}
    </div>
  )
}

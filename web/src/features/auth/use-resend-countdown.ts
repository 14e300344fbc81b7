import { useCallback, useEffect, useState } from 'react'

/** SPEC.md: the OTP resend link appears 60 s after a code was sent (the server refuses earlier resends). */
export const RESEND_COOLDOWN_SECONDS = 60

/**
 * The resend cooldown of every OTP screen. It reads the monotonic clock on each tick instead of counting
 * ticks, because a phone throttles timers in a background tab and its wall clock may jump.
 */
export function useResendCountdown({
  cooldownSeconds = RESEND_COOLDOWN_SECONDS,
  startOnMount = false,
}: { cooldownSeconds?: number; startOnMount?: boolean } = {}) {
  const [deadline, setDeadline] = useState<number | null>(() =>
    startOnMount ? performance.now() + cooldownSeconds * 1000 : null,
  )
  const [now, setNow] = useState(() => performance.now())
  // Never more than the cooldown: a monotonic clock read in two places can still disagree by a hair (a CI run showed
  // "61 s"), and the screen must not promise a longer wait than the server imposes.
  const secondsLeft = deadline === null ? 0 : Math.min(cooldownSeconds, Math.max(0, Math.ceil((deadline - now) / 1000)))

  useEffect(() => {
    if (deadline === null) return
    const tick = () => {
      const current = performance.now()
      setNow(current)
      if (current >= deadline) clearInterval(timer)
    }
    const timer = setInterval(tick, 250)
    return () => clearInterval(timer)
  }, [deadline])

  const start = useCallback(() => {
    const current = performance.now()
    setNow(current)
    setDeadline(current + cooldownSeconds * 1000)
  }, [cooldownSeconds])

  return { secondsLeft, canResend: secondsLeft === 0, start }
}

export type ResendCountdown = ReturnType<typeof useResendCountdown>

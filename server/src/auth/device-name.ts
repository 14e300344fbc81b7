import Bowser from 'bowser'

const MAX_LENGTH = 60

/**
 * A short readable name for a login's device, from its User-Agent: "Chrome on Android", "Safari on iOS", "Firefox on
 * Windows". Bowser (a maintained parser) reads the browser and system; anything it cannot name is left out, and a
 * User-Agent with neither gives '' (the screen then says "Unknown device"). A User-Agent is whatever the client says,
 * so this is a hint for the learner, never evidence.
 */
export function deviceName(userAgent: string | undefined): string {
  if (!userAgent) return ''
  const { browser, os } = Bowser.parse(userAgent)
  const name = browser.name && os.name ? `${browser.name} on ${os.name}` : (browser.name ?? os.name ?? '')
  return name.slice(0, MAX_LENGTH)
}

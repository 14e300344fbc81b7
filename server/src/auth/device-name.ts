import Bowser from 'bowser'

const MAX_LENGTH = 60

// A User-Agent is whatever the client says: a hint for the learner, never evidence.
export function deviceName(userAgent: string | undefined): string {
  if (!userAgent) return ''
  const { browser, os } = Bowser.parse(userAgent)
  const name = browser.name && os.name ? `${browser.name} on ${os.name}` : (browser.name ?? os.name ?? '')
  return name.slice(0, MAX_LENGTH)
}

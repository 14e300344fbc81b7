import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { MemorySms } from '../../test/memory-sms'
import { useTestApp } from '../../test/test-app'
import { buildApp } from '../app'
import { createTokenSigner } from '../http/tokens'

describe.each(dialects)('logs on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('never contain passwords, codes or tokens, even at trace level and without redaction', async () => {
    const lines: string[] = []
    const sms = new MemorySms()
    const tokens = createTokenSigner({ secret: t.config.jwtSecret, accessTtl: 900, refreshTtl: 3600, clock: t.clock })
    const app = await buildApp(
      { config: t.config, database: t.database, clock: t.clock, tokens, sms },
      { logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } } },
    )
    const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload })
    const secrets: string[] = []

    const user = await createUser(t.database, { phone_number: '9800000001' })
    secrets.push(user.password)
    const pair = (await post('/api/token/', { username: user.username, password: user.password })).json()
    const rotated = (await post('/api/token/refresh/', { refresh: pair.refresh })).json()
    secrets.push(pair.access, pair.refresh, rotated.access, rotated.refresh)
    await app.inject({
      method: 'GET',
      url: '/api/users/profile/',
      headers: { authorization: `Bearer ${rotated.access}` },
    })
    await post('/api/token/refresh/', { refresh: pair.refresh })
    await post('/api/token/revoke/', { refresh: rotated.refresh })
    secrets.push('Wrong-Guess-123')
    await post('/api/token/', { username: user.username, password: 'Wrong-Guess-123' })

    await post('/api/users/otp/send/', { phone_number: '9800000002', purpose: 'register' })
    const registerCode = sms.lastCode('9800000002')
    secrets.push(registerCode)
    await post('/api/users/otp/verify/', { phone_number: '9800000002', purpose: 'register', otp: registerCode })
    secrets.push('Naya-Khata-2026')
    await post('/api/users/register/', {
      username: 'newbie',
      password: 'Naya-Khata-2026',
      password2: 'Naya-Khata-2026',
      phone_number: '9800000002',
    })

    await post('/api/users/otp/send/', { phone_number: '9800000001', purpose: 'reset' })
    const resetCode = sms.lastCode('9800000001')
    secrets.push(resetCode, 'Pheri-Suru-2026')
    await post('/api/users/password-reset/', {
      phone_number: '9800000001',
      otp: resetCode,
      password: 'Pheri-Suru-2026',
    })

    sms.failing = true
    await post('/api/users/otp/send/', { phone_number: '9800000001', purpose: 'login' })
    await app.close()

    const log = lines.join('')
    expect(log).toContain('incoming request')
    expect(log).toContain('SMS delivery failed')
    for (const secret of secrets) {
      // A 6-digit code could turn up by chance inside a timestamp: look for it as a number of its own.
      if (/^\d+$/.test(secret)) expect(log).not.toMatch(new RegExp(`(?<![\\d.])${secret}(?![\\d])`))
      else expect(log).not.toContain(secret)
    }
  })
})

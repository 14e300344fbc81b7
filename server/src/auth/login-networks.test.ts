import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { post } from '../../test/auth-requests'
import { clientNetwork } from '../http/client-network'

// Issue 54, item 5: every fresh IPv6 address was a new client, so one /64 guessed a password without bound.

describe('clientNetwork', () => {
  it('reads IPv4 as itself, IPv4-mapped IPv6 as its IPv4 and any other IPv6 as its /64', () => {
    expect(clientNetwork('198.51.100.7')).toBe('198.51.100.7')
    expect(clientNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7')
    expect(clientNetwork('::FFFF:c633:6407')).toBe('198.51.100.7')
    expect(clientNetwork('2001:db8:a:b::1')).toBe('2001:db8:a:b::/64')
    expect(clientNetwork('2001:0db8:000a:000b:ffff:1:2:3')).toBe('2001:db8:a:b::/64')
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64')
    expect(clientNetwork('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64')
    expect(clientNetwork('not an address')).toBe('not an address')
  })
})

describe.each(dialects)('login throttling per network on %s', (dialect) => {
  const t = useTestApp(dialect, { RATE_LIMIT_LOGIN_PER_IP: '3', RATE_LIMIT_OTP_PER_IP_HOUR: '2' })
  const tryLogin = (username: string, password: string, address: string) =>
    post(t.app, '/api/token/', { username, password }, address)

  it('counts the addresses of one IPv6 /64 as one client for the logins per address', async () => {
    const user = await createUser(t.database)
    for (let i = 1; i <= 3; i++)
      expect((await tryLogin(user.username, user.password, `2001:db8:1:2::${i}`)).statusCode).toBe(200)
    const fourth = await tryLogin(user.username, user.password, '2001:db8:1:2:abcd::4')
    expect(fourth.statusCode).toBe(429)
    expect(fourth.headers['retry-after']).toBeDefined()
    // The next /64 is another client.
    expect((await tryLogin(user.username, user.password, '2001:db8:1:3::1')).statusCode).toBe(200)
  })

  it('locks a /64 out of an account after 10 failures, whatever address of it tries next', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    for (let i = 0; i < 10; i++) {
      // Three addresses per /64 at most here: the logins per address (3) hold too.
      const address = `2001:db8:${Math.floor(i / 3)}:1::${i + 1}`
      expect((await tryLogin(admin.username, `wrong-${i}`, address)).statusCode).toBe(401)
    }
    // A fresh address in a /64 that failed is not a fresh client: refused even with the right password.
    expect((await tryLogin(admin.username, admin.password, '2001:db8:0:1::ffff')).statusCode).toBe(429)
  })

  it('reads an IPv4-mapped IPv6 address as its IPv4', async () => {
    const user = await createUser(t.database)
    for (let i = 0; i < 3; i++) await tryLogin(user.username, user.password, '::ffff:198.51.100.9')
    expect((await tryLogin(user.username, user.password, '198.51.100.9')).statusCode).toBe(429)
  })

  it('gives networks without failures one allowance of 10 tries on a locked account, then only its own', async () => {
    const owner = await createUser(t.database)
    // The owner signed in from home before the attack.
    expect((await tryLogin(owner.username, owner.password, '2001:db8:feed:1::5')).statusCode).toBe(200)
    const guess = (n: number, password = `wrong-${n}`) => tryLogin(owner.username, password, `2001:db8:bad:${n}::1`)
    for (let n = 0; n < 20; n++) expect((await guess(n)).statusCode).toBe(401)
    // 10 failures for the account, and 10 from networks without any: every new network is refused now.
    const refused = await guess(20, owner.password)
    expect(refused.statusCode).toBe(429)
    expect(refused.json().code).toBe('rate_limited')
    // The owner's network, from another of its addresses, still gets in.
    expect((await tryLogin(owner.username, owner.password, '2001:db8:feed:1::77')).statusCode).toBe(200)
  })

  it('counts the code requests of one IPv6 /64 as one client', async () => {
    const send = (phone: string, address: string) =>
      post(t.app, '/api/users/otp/send/', { phone_number: phone, purpose: 'register' }, address)
    expect((await send('9800000001', '2001:db8:5:5::1')).statusCode).toBe(200)
    expect((await send('9800000002', '2001:db8:5:5::2')).statusCode).toBe(200)
    expect((await send('9800000003', '2001:db8:5:5::3')).statusCode).toBe(429)
    expect((await send('9800000003', '2001:db8:5:6::1')).statusCode).toBe(200)
  })
})

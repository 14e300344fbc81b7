import argon2 from 'argon2'

// argon2id at OWASP's floor (19 MiB, 2 passes, 1 lane): a classroom's logins stay cheap (docs/performance.md).
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password.normalize('NFKC'), OPTIONS)
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  try {
    return await argon2.verify(stored, password.normalize('NFKC'))
  } catch {
    // A malformed stored hash never matches.
    return false
  }
}

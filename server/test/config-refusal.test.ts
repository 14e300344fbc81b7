import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { spawnServerProgram } from './server-process'

// Issue 73: a server refusing its settings loaded every module first (2 s of CPU, over 20 s on a busy machine)
// before saying why. main.ts reads the settings with nothing else loaded; the server itself is serve.ts.
describe('a server refusing its configuration', () => {
  it('loads nothing but the settings before reading them', () => {
    const main = readFileSync(new URL('../src/main.ts', import.meta.url), 'utf8')
    const imports = [...main.matchAll(/^import .*?['"]([^'"]+)['"]/gm)].map((match) => match[1])
    expect(imports).toEqual(['dotenv/config', './config'])
  })

  it('says why and exits 1, having served nothing', async () => {
    const child = spawnServerProgram(
      'main',
      [],
      { NODE_ENV: 'production', PORT: '0' },
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    expect(output).toContain('Refusing to start')
    expect(output).toContain('JWT_SECRET is required in production.')
    expect(output).not.toContain('listening')
  })
})

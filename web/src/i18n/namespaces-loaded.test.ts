import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resources } from './i18n'

// A feature's namespace is registered by the module that imports its `*.i18n.ts`; a screen in another chunk that
// uses the namespace without importing it shows raw keys ("tabs.attempts") when it is the first screen opened. Each
// module that names a feature namespace therefore imports its registration itself.
const src = join(import.meta.dirname, '..')
const shellNamespaces = new Set(Object.keys(resources.en))

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier)
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((path) => existsSync(path) && path !== base)
}

function namespacesUsed(code: string): Set<string> {
  const used = new Set<string>()
  for (const match of code.matchAll(/useTranslation\(\s*'([\w-]+)'|\bns:\s*'([\w-]+)'/g)) used.add(match[1] ?? match[2])
  return used
}

function namespacesRegistered(file: string, code: string): Set<string> {
  const registered = new Set<string>()
  for (const match of code.matchAll(/(?:import|from)\s+'(\.[^']+)'/g)) {
    const imported = resolveImport(file, match[1])
    if (!imported) continue
    for (const found of readFileSync(imported, 'utf8').matchAll(/registerNamespace\('([\w-]+)'/g)) {
      registered.add(found[1])
    }
  }
  return registered
}

describe('feature namespaces are loaded by the modules that use them', () => {
  const files = sourceFiles(src).filter((file) => !file.includes(`${join('i18n', 'i18n.ts')}`))
  it('finds the modules that use translations', () => expect(files.length).toBeGreaterThan(50))
  it('every module imports the registration of each feature namespace it names', () => {
    const missing = files.flatMap((file) => {
      const code = readFileSync(file, 'utf8')
      const registered = namespacesRegistered(file, code)
      return [...namespacesUsed(code)]
        .filter((namespace) => !shellNamespaces.has(namespace) && !registered.has(namespace))
        .filter((namespace) => !code.includes(`registerNamespace('${namespace}'`))
        .map((namespace) => `${relative(src, file)}: ${namespace}`)
    })
    expect(missing).toEqual([])
  })
})

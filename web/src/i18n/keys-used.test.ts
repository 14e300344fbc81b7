import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { locales } from './locales'

// Every translation key a screen names exists in both languages (WEB.md: every visible string has en and ne), so
// no screen shows a raw key such as "tabs.attempts". The types catch most keys at `tsc`; this reads the sources
// as written, so a key behind a cast, a `{ ns }` option, a key prefix or a template is checked too.
const src = join(import.meta.dirname, '..')
type Namespace = keyof typeof locales.en

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix]
  return Object.entries(value).flatMap(([key, inner]) => keysOf(inner, prefix ? `${prefix}.${key}` : key))
}

// i18next's plurals: a key `x` is there when `x_one` / `x_other` are.
const PLURAL = /_(zero|one|two|few|many|other)$/
const keySets = Object.fromEntries(
  (['en', 'ne'] as const).map((language) => [
    language,
    Object.fromEntries(
      Object.entries(locales[language]).map(([namespace, bundle]) => {
        const keys = keysOf(bundle)
        return [namespace, new Set([...keys, ...keys.map((key) => key.replace(PLURAL, ''))])]
      }),
    ),
  ]),
) as Record<'en' | 'ne', Record<string, Set<string>>>

interface Binding {
  name: string
  at: number
  namespace: string
  prefix?: string
}

/** The translators a module binds: `const { t: tQuiz } = useTranslation('quiz', { keyPrefix })`, `t: TFunction<'x'>`. */
function bindingsOf(code: string): Binding[] {
  const bindings: Binding[] = []
  const hook =
    /const \{([^}]*)\}\s*=\s*useTranslation\(\s*(?:'([\w-]+)')?\s*(?:,\s*\{\s*keyPrefix:\s*'([\w.]+)'\s*\})?\s*\)/g
  for (const match of code.matchAll(hook)) {
    const named = /\bt(?:\s*:\s*(\w+))?\s*(?:,|$)/.exec(match[1]!.trim())
    if (!named) continue
    bindings.push({ name: named[1] ?? 't', at: match.index, namespace: match[2] ?? 'common', prefix: match[3] })
  }
  const aliases = new Map(
    [...code.matchAll(/type (\w+) = TFunction<'([\w-]+)'>/g)].map((match) => [match[1]!, match[2]!] as const),
  )
  for (const match of code.matchAll(/\b(\w+): (?:TFunction<'([\w-]+)'>|(\w+))/g)) {
    const namespace = match[2] ?? aliases.get(match[3] ?? '')
    if (namespace) bindings.push({ name: match[1]!, at: match.index, namespace })
  }
  return bindings.sort((a, b) => a.at - b.at)
}

interface Use {
  file: string
  /** The key as written: a plain key, or a pattern when the key is a template (`list.${key}`). */
  key: string
  pattern?: RegExp
  namespace: string
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function usesOf(file: string): Use[] {
  const code = readFileSync(file, 'utf8')
  const bindings = bindingsOf(code)
  const names = [...new Set(bindings.map((binding) => binding.name))]
  const uses: Use[] = []
  const bindingAt = (name: string, at: number) =>
    bindings.filter((binding) => binding.name === name && binding.at <= at).at(-1)
  const add = (raw: string, binding: Binding, options: string, isTemplate: boolean) => {
    const ns = /\bns:\s*'([\w-]+)'/.exec(options)?.[1]
    let namespace = ns ?? binding.namespace
    let key = raw
    const colon = /^([\w-]+):(.+)$/.exec(raw)
    if (colon) [, namespace, key] = colon as unknown as [string, string, string]
    if (binding.prefix) key = `${binding.prefix}.${key}`
    const use: Use = { file: relative(src, file), key, namespace }
    if (isTemplate) {
      use.pattern = new RegExp(
        `^${key
          .split(/\$\{[^}]*\}/)
          .map(escape)
          .join('.+')}$`,
      )
    }
    uses.push(use)
  }
  if (names.length > 0) {
    const call = new RegExp(`\\b(${names.join('|')})\\(\\s*(?:'([^']+)'|\`([^\`]+)\`)([^)]*)`, 'g')
    for (const match of code.matchAll(call)) {
      const binding = bindingAt(match[1]!, match.index)
      if (!binding) continue
      add(match[2] ?? match[3]!, binding, match[4] ?? '', match[3] !== undefined)
    }
  }
  for (const match of code.matchAll(/<Trans\b([^>]*)\bi18nKey="([^"]+)"([^>]*)>/g)) {
    const attributes = `${match[1]} ${match[3]}`
    const translator = /\bt=\{(\w+)\}/.exec(attributes)?.[1] ?? 't'
    const binding = bindingAt(translator, match.index)
    if (binding) add(match[2]!, binding, attributes, false)
  }
  return uses
}

function isPresent(use: Use, language: 'en' | 'ne') {
  const keys = keySets[language][use.namespace]
  if (!keys) return false
  return use.pattern ? [...keys].some((key) => use.pattern!.test(key)) : keys.has(use.key)
}

describe('translation keys used by the screens', () => {
  const uses = sourceFiles(src).flatMap(usesOf)

  it('reads the keys of every screen, with their namespaces', () => {
    expect(uses.length).toBeGreaterThan(1000)
    expect(uses).toContainEqual({
      file: join('features', 'admin', 'quizzes', 'quiz-tabs.tsx'),
      key: 'common.back_to_dashboard',
      namespace: 'admin',
    })
    expect(uses).toContainEqual({
      file: join('features', 'admin', 'quizzes', 'quiz-tabs.tsx'),
      key: 'paper.tab',
      namespace: 'bank',
    })
    // useTranslation('dashboard', { keyPrefix: 'live' })
    expect(uses).toContainEqual({
      file: join('features', 'dashboard', 'live-card.tsx'),
      key: 'live.starts',
      namespace: 'dashboard',
    })
  })

  it('finds a key that is in neither language', () => {
    const missing: Use = { file: 'x.tsx', key: 'tabs.nowhere', namespace: 'admin' }
    expect([isPresent(missing, 'en'), isPresent(missing, 'ne')]).toEqual([false, false])
    const template: Use = { file: 'x.tsx', key: 'tabs.${x}', pattern: /^tabs\..+$/, namespace: 'admin' }
    expect(isPresent(template, 'ne')).toBe(true)
  })

  for (const language of ['en', 'ne'] as const) {
    it(`every key is in the ${language} locale files`, () => {
      const missing = uses
        .filter((use) => !isPresent(use, language))
        .map((use) => `${use.file}: ${use.namespace as Namespace}:${use.key}`)
      expect([...new Set(missing)]).toEqual([])
    })
  }
})

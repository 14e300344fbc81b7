import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { appTexts } from '../../../test/fixtures/app-texts.fixtures'
import { legacyToUnicode } from './convert'
import { decideQuestion, readsAsLegacy } from './detect'
import { typeOnPreeti } from '../../../test/fixtures/preeti-typist.fixtures'

/* The web app's Nepali, typed on the Preeti keyboard by preeti-typist.fixtures.ts: whole sentences of every kind. */
const typed = appTexts.map(([en, ne]) => ({ en, ne, preeti: typeOnPreeti(ne)! }))

describe("the web app's texts", () => {
  it('are all typeable on Preeti', () => {
    expect(typed.filter(({ preeti }) => preeti === null)).toEqual([])
  })

  it('convert back to the Nepali they were typed from, in both fonts', () => {
    for (const { ne, preeti } of typed) {
      expect(legacyToUnicode(preeti, 'preeti')).toBe(ne.normalize('NFC'))
      expect(legacyToUnicode(preeti, 'kantipur')).toBe(ne.normalize('NFC'))
    }
  })

  it('read as legacy text when typed in Preeti, all but a few single words', () => {
    const missed = typed.filter(({ preeti }) => !readsAsLegacy(preeti))
    expect(missed.length / typed.length).toBeLessThan(0.03)
    for (const { ne } of missed) expect(ne).not.toContain(' ')
  })

  it('never read as legacy text in English', () => {
    expect(typed.filter(({ en }) => readsAsLegacy(en)).map(({ en }) => en)).toEqual([])
  })

  it('never read as legacy text in Nepali', () => {
    expect(typed.filter(({ ne }) => readsAsLegacy(ne))).toEqual([])
  })

  it('decide as questions: the Nepali typed in Preeti, four at a time, is Preeti; the English never', () => {
    for (let at = 0; at < typed.length; at += 4) {
      const group = typed.slice(at, at + 4)
      expect(decideQuestion(group.map(({ preeti }) => preeti)).legacy).toBe(true)
      expect(decideQuestion(group.map(({ en }) => en)).legacy).toBe(false)
    }
  })
})

/* Code and markdown, by the thousand: the installed packages' READMEs, four lines to a question. */
describe("the installed packages' READMEs", () => {
  it('are almost never decided Preeti as questions', () => {
    const modules = fileURLToPath(new URL('../../../../node_modules', import.meta.url))
    const lines = readdirSync(modules)
      .map((name) => `${modules}/${name}/README.md`)
      .filter(existsSync)
      .flatMap((path) => readFileSync(path, 'utf8').split('\n'))
      .map((line) => line.trim())
      .filter((line) => line.length > 3 && line.length < 200)
    let questions = 0
    let legacy = 0
    for (let at = 0; at + 4 <= lines.length; at += 4, questions++)
      if (decideQuestion(lines.slice(at, at + 4)).legacy) legacy++
    expect(questions).toBeGreaterThan(1_000)
    // Measured at 5 of 12,700 (lists of file extensions, camelCase names, a JavaScript call spread over lines).
    expect(legacy / questions).toBeLessThan(0.001)
  })
})

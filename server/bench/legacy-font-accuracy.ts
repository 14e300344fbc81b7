/*
 * How many of our Preeti vectors a converter gets right: the hand-typed vectors (vectors.fixtures.ts) and the round
 * trip of the Nepali corpus typed with the extended keys. Run from server/:
 *   npx tsx bench/legacy-font-accuracy.ts [path to a convert.ts, default ours]
 * Pointing it at another checkout's convert.ts measures that version on today's vectors.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as corpus from '../test/fixtures/nepali-corpus.fixtures'
import { typeOnPreeti } from '../test/fixtures/preeti-typist.fixtures'
import { groups } from '../test/fixtures/vectors.fixtures'

type Convert = (text: string, font: 'preeti' | 'kantipur') => string

const path = resolve(process.argv[2] ?? 'src/imports/legacy-font/convert.ts')
const { legacyToUnicode } = (await import(pathToFileURL(path).href)) as { legacyToUnicode: Convert }

const families: Record<string, Array<[string, string]>> = { ...groups }
for (const [name, texts] of Object.entries(corpus))
  families[`round trip: ${name}`] = (texts as string[]).map((text) => [
    typeOnPreeti(text, 'extended')!,
    text.normalize('NFC'),
  ])

let right = 0
let total = 0
for (const [name, vectors] of Object.entries(families)) {
  const good = vectors.filter(([keys, unicode]) => legacyToUnicode(keys, 'preeti') === unicode).length
  right += good
  total += vectors.length
  console.log(`${String(good).padStart(4)} / ${String(vectors.length).padEnd(4)} ${name}`)
}
console.log(`${right} / ${total} right: ${((100 * right) / total).toFixed(1)}% (${path})`)

import { describe, expect, it } from 'vitest'
import { locales } from './locales'

// Decision 049: a Nepali postposition is written joined to its word ("अंकगणितमा", "{{topic}}मा"), so a line
// never breaks between them. After a number, a date, a time or a formula it keeps its space ("१ देखि १०",
// "{{date}} मा", "{{formula}} ले").
const POSTPOSITIONS = 'मा|को|का|की|ले|लाई|बाट|देखि|सम्म|भन्दा|सँग|अनुसार'
const NUMBER_VALUES = new Set([
  'allowed',
  'answered',
  'count',
  'date',
  'end',
  'first',
  'formula',
  'from',
  'id',
  'join_end',
  'kept',
  'last',
  'letter',
  'max',
  'maxDepth',
  'maxExpand',
  'maxRenderedChars',
  'min',
  'n',
  'number',
  'numbers',
  'participants',
  'percent',
  'phone',
  'place',
  'rank',
  'remaining',
  'responses',
  'row',
  'score',
  'start',
  // A table's number in a text (issue 61).
  'table',
  'time',
  'to',
  'total',
  'version',
])
// A word (two or more Devanagari letters, not digits) or a placeholder, a space, then a postposition ending a word.
const SPACED = new RegExp(
  `(\\{\\{(\\w+)\\}\\}|[\\u0900-\\u0963\\u0970-\\u097F]{2,}) (${POSTPOSITIONS})(?![\\u0900-\\u097F])`,
  'g',
)

function strings(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]]
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, inner]) => strings(inner, path ? `${path}.${key}` : key))
}

function spacedPostpositions(text: string): string[] {
  return [...text.matchAll(SPACED)]
    .filter((match) => match[2] === undefined || !NUMBER_VALUES.has(match[2]))
    .map((match) => match[0])
}

describe('Nepali postpositions', () => {
  it('finds a postposition set apart from its word', () => {
    expect(spacedPostpositions('{{topics}} मा गलत')).toEqual(['{{topics}} मा'])
    expect(spacedPostpositions('अंकगणित मा')).toEqual(['अंकगणित मा'])
    expect(spacedPostpositions('{{topics}}मा, अंकगणितमा, घरभित्र')).toEqual([])
  })

  it('keeps the space after a number, a date or a time', () => {
    expect(spacedPostpositions('१ देखि १८० सम्म, {{date}} मा, {{total}} मध्ये')).toEqual([])
  })

  it('joins every postposition to its word in the ne locale files', () => {
    const found = Object.entries(locales.ne).flatMap(([namespace, bundle]) =>
      strings(bundle).flatMap(([key, text]) =>
        spacedPostpositions(text).map((spaced) => `${namespace}:${key}: ${spaced}`),
      ),
    )
    expect(found).toEqual([])
  })
})

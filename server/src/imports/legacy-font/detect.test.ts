import { describe, expect, it } from 'vitest'
import { readsAsLegacy } from './detect'

describe('readsAsLegacy', () => {
  it.each([
    'nf]s ;]jf cfof]u',
    String.raw`g]kfnsf] ;+ljwfg @)&@ cg';f/ g]kfndf slt k|b]z 5g\ <`,
    `g]kfnsf] ;a}eGbf cUnf] lxdfn s'g xf] <`,
    "k|Zg != g]kfnsf] /fhwfgL s'g xf] <\npQ/M sf7df8f}+",
    `/fd axfb'/ yfkf`,
    'wd{',
    'g]kfn',
    'sf7df8f}+',
    'ljBfno',
    'zflGt',
    'pQ/',
    'kfFr',
    '/fd',
    'cf7',
    'slt',
    'ef/t',
    ';do',
    ";'/' ;do",
    ':yfg',
    'dWod',
    'aGb',
    '8fS6/',
    `sDKo'6/ Computer sf] k'/f gfd s] xf] <`,
  ])('reads %j as legacy text', (text) => {
    expect(readsAsLegacy(text)).toBe(true)
  })

  it.each(['!))', '@)&@', '!,@%)'])('reads %j, the Preeti digit keys alone, as legacy text', (text) => {
    expect(readsAsLegacy(text)).toBe(true)
  })

  it.each([
    'What is the capital of Nepal?',
    'The Constitution of Nepal 2072 has 35 parts; which part deals with citizenship?',
    'Which of these is a prime number?',
    'None of the above',
    'Both (a) and (b)',
    'Choose [A] or [B].',
    "Don't panic: it's fine.",
    'e.g. x+y = 10',
    'f(x) = 2x',
    'O(n log n)',
    'for(i=0;i<n;i++)',
    'What is the value of a[2] in {1, 2, 3}?',
    'HTML/CSS and C++',
    'TCP/IP',
    '60 km/h',
    'Mt. Everest (8848 m)',
    'Ram Bahadur Thapa',
    'Kathmandu',
    'Tribhuvan University',
    "St. Xavier's",
    'Mr. Smith',
    'CPU',
    'JavaScript',
    'McDonald',
    'mRNA',
    'pH',
    'A|B',
    'www.psc.gov.np',
    'https://psc.gov.np/notice',
    'Upload a csv or xlsx file.',
    'xlsx',
    'Sky',
    'first',
    'staff',
    'I',
  ])('does not read the English %j as legacy text', (text) => {
    expect(readsAsLegacy(text)).toBe(false)
  })

  it.each(['2072', '1,250.50', '3.14', '(1)', '()', ''])(
    'does not read %j, plain numbers or nothing, as legacy',
    (text) => {
      expect(readsAsLegacy(text)).toBe(false)
    },
  )

  it.each(['नेपाल', 'लोक सेवा आयोग', 'Nepal नेपाल', 'g]kfn नेपाल'])('does not read %j, which holds Devanagari', (text) => {
    expect(readsAsLegacy(text)).toBe(false)
  })
})

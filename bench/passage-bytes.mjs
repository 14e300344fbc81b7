// What a passage adds to the offline paper (issue 77, decision 130): a 100-question paper with 10 passages of 300
// words, each 10 questions long, in the learner shapes of API.md. Bytes as JSON and as sent (Brotli 4, as
// server/src/http/compression.ts). Run: node bench/passage-bytes.mjs
import { brotliCompressSync, constants } from 'node:zlib'

// Pseudo-random words (seeded): a real passage compresses about as well as random letters of its alphabet, and
// repeated words would let Brotli hide the passage's cost.
let seed = 77
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
const LATIN = 'abcdefghijklmnopqrstuvwxyz'
const DEVANAGARI = 'कखगघचछजझटठडढणतथदधनपफबभमयरलवशसहािीुूेैोौं'
const word = (alphabet) =>
  Array.from({ length: 2 + Math.floor(random() * 7) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')
const words = (alphabet, count) => Array.from({ length: count }, () => word(alphabet)).join(' ')
const text = (count) => ({ en: words(LATIN, count), ne: words(DEVANAGARI, count), html: null })

const passages = Array.from({ length: 10 }, (_, i) => ({ id: 500 + i, text: text(300), image: null }))
const questions = Array.from({ length: 100 }, (_, i) => ({
  id: 1000 + i,
  number: i + 1,
  type: 'choice',
  text: text(25),
  topic: 'English',
  image: null,
  options: [1, 2, 3, 4].map((k) => ({ id: 10_000 + i * 10 + k, text: text(4), image: null })),
  marks: null,
  word_limit: null,
  passage: passages[Math.floor(i / 10)],
}))
const lone = questions.map((question) => ({ ...question, passage: null }))
// With `passages_held` (decision 130): the device holds a passage after its first question, then gets it by id alone.
const held = questions.map((question, i) =>
  i % 10 === 0 ? question : { ...question, passage: { id: question.passage.id } },
)

const json = (value) => Buffer.byteLength(JSON.stringify(value))
const br = (value) =>
  brotliCompressSync(JSON.stringify(value), { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }).length
const sum = (list, size) => list.reduce((total, item) => total + size(item), 0)
const once = {
  passages,
  questions: questions.map(({ passage, number: _number, ...question }) => ({ ...question, passage_id: passage.id })),
}
const keptPerQuestion = sum(questions, json)
const keptOnce = sum(once.questions, json) + sum(passages, json)

const rows = [
  ['one passage (300 words, en + ne)', json(passages[0]), br(passages[0])],
  ['question route, 100 fetches, no passages', sum(lone, json), sum(lone, br)],
  ['question route, 100 fetches, passage in each', sum(questions, json), sum(questions, br)],
  ['question route, 100 fetches, passages_held: each passage whole once', sum(held, json), sum(held, br)],
  ['paper with each passage once (live paper ahead, before encryption)', json(once), br(once)],
  // Encrypted (AES-GCM adds its 16-byte tag), then base64url in JSON: ciphertext does not compress.
  ['the same, as the live paper ahead sends it (encrypted, base64url)', Math.ceil(((json(once) + 16) * 4) / 3), null],
]
console.log('| what | JSON bytes | sent (Brotli 4) |\n|---|---:|---:|')
for (const [what, raw, sent] of rows)
  console.log(`| ${what} | ${raw.toLocaleString('en')} | ${sent?.toLocaleString('en') ?? '(as JSON)'} |`)
console.log(
  `\nkept on the device: passage in each question ${keptPerQuestion.toLocaleString('en')} B, each passage once ${keptOnce.toLocaleString('en')} B, no passages ${sum(lone, json).toLocaleString('en')} B`,
)

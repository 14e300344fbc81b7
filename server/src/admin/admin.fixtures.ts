// Request bodies shared by the admin API tests.

export const TRIANGLE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="M10 90 L50 10 L90 90 Z" fill="none" stroke="black"/></svg>'

export const DEVANAGARI_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 40"><text x="10" y="25">त्रिभुज</text></svg>'

/** A valid SVG with a script and an event handler that sanitising must remove. */
export const HOSTILE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><circle cx="5" cy="5" r="4"/></svg>'

export const SANITISED_HOSTILE_SVG = '<svg xmlns="http://www.w3.org/2000/svg"><circle cx="5" cy="5" r="4"/></svg>'

/** A well-formed SVG of about `bytes` bytes: one long path, as drawing tools write them. */
export function svgOfSize(bytes: number) {
  const head = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0'
  const tail = '"/></svg>'
  const step = ' L1 1'
  return head + step.repeat(Math.ceil((bytes - head.length - tail.length) / step.length)) + tail
}

/** A valid question body: bilingual text, a hint, a topic, an image and four options, the first correct. */
export function questionBody(overrides: Record<string, unknown> = {}) {
  return {
    text: { en: 'How many sides has a triangle?', ne: 'त्रिभुजका कति भुजा हुन्छन्?' },
    hint: { en: 'Count the corners.', ne: 'कुनाहरू गन्नुहोस्।' },
    topic: 'geometry',
    image: { svg: TRIANGLE_SVG, caption: { en: 'A triangle', ne: 'त्रिभुज' } },
    options: [
      { text: { en: '3', ne: '३' }, is_correct: true, image: { svg: DEVANAGARI_SVG } },
      { text: { en: '4', ne: '४' }, is_correct: false },
      { text: { en: '5' }, is_correct: false, image: null },
      { text: { en: '6', ne: '' }, is_correct: false },
    ],
    ...overrides,
  }
}

/** Two options with only the first one correct: the smallest valid set. */
export const twoOptions = [
  { text: { en: 'Yes' }, is_correct: true },
  { text: { en: 'No' }, is_correct: false },
]

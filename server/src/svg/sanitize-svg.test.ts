import { JSDOM } from 'jsdom'
import { describe, expect, it } from 'vitest'
import { sanitizeSvg, svgLimits, svgRejections } from './sanitize-svg'

const SVG = 'xmlns="http://www.w3.org/2000/svg"'
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"'

function clean(input: string) {
  const result = sanitizeSvg(input)
  if (!result.ok) throw new Error(`expected ${input} to be kept, got: ${result.reason}`)
  return result.svg
}

/** Everything a browser could execute or fetch, in any spelling. */
function expectInert(svg: string) {
  // Namespace names are URIs that are never fetched: leave them out of the search for URLs.
  const lower = svg.toLowerCase().replace(/\sxmlns(:[a-z0-9]+)?="[^"]*"/g, '')
  expect(lower).not.toMatch(/<script|<foreignobject|<iframe|<img|<embed|<object|<handler|<set|<animate/)
  expect(lower).not.toMatch(/\son[a-z]+\s*=/)
  expect(lower).not.toMatch(/javascript:|vbscript:|data:|https?:|file:|\/\/evil|@import|image-set/)
  for (const match of lower.matchAll(/href\s*=\s*"([^"]*)"/g)) expect(match[1]!.startsWith('#')).toBe(true)
  for (const match of lower.matchAll(/url\(\s*['"]?\s*(.)/g)) expect(match[1]).toBe('#')
}

/** The output must stand alone as an image: well-formed XML whose root is an SVG element. */
function expectStandaloneSvg(svg: string) {
  const { window } = new JSDOM('')
  const doc = new window.DOMParser().parseFromString(svg, 'image/svg+xml')
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0)
  expect(doc.documentElement.namespaceURI).toBe('http://www.w3.org/2000/svg')
  expect(doc.documentElement.localName).toBe('svg')
}

const circle = '<circle cx="5" cy="5" r="4" fill="green"/>'

// Payloads from OWASP's XSS filter evasion sheet, the DOMPurify and HTML5 Security Cheatsheet test suites,
// and published SVG upload advisories. Each keeps a harmless circle so the SVG itself survives.
const attacks: [string, string][] = [
  ['a script element', `<svg ${SVG}><script>alert(1)</script>${circle}</svg>`],
  ['an upper-case script element', `<svg ${SVG}><SCRIPT>alert(1)</SCRIPT>${circle}</svg>`],
  [
    'a script with an external src',
    `<svg ${SVG} ${XLINK}><script xlink:href="https://evil.example/x.js"/>${circle}</svg>`,
  ],
  ['a script hidden in CDATA', `<svg ${SVG}><script><![CDATA[alert(1)]]></script>${circle}</svg>`],
  ['onload on the root', `<svg ${SVG} onload="alert(1)">${circle}</svg>`],
  ['event handlers in mixed case', `<svg ${SVG}><g OnClick="alert(1)" onMouseOver="alert(2)">${circle}</g></svg>`],
  ['an event handler on a shape', `<svg ${SVG}><circle r="4" onclick="alert(1)" onerror="alert(2)"/></svg>`],
  ['xlink:href javascript: on a link', `<svg ${SVG} ${XLINK}><a xlink:href="javascript:alert(1)">${circle}</a></svg>`],
  ['href javascript: with entities', `<svg ${SVG}><a href="&#106;&#97;vascript&#58;alert(1)">${circle}</a></svg>`],
  ['href javascript: with a tab inside', `<svg ${SVG}><a href="java&#x09;script:alert(1)">${circle}</a></svg>`],
  ['href javascript: with leading spaces', `<svg ${SVG}><a href="  javascript:alert(1)">${circle}</a></svg>`],
  [
    'foreignObject with HTML',
    `<svg ${SVG}><foreignObject width="100" height="100"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="javascript:alert(1)"></iframe><img src="x" onerror="alert(1)"/></body></foreignObject>${circle}</svg>`,
  ],
  ['use pointing at another site', `<svg ${SVG}><use href="http://evil.example/sprite.svg#icon"/>${circle}</svg>`],
  [
    'use with xlink:href to a data URL',
    `<svg ${SVG} ${XLINK}><use xlink:href="data:image/svg+xml;base64,PHN2ZyBpZD0ieCIgeG1sbnM9Imh0dHA6Ly93d3cudzMub3JnLzIwMDAvc3ZnIj48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+#x"/>${circle}</svg>`,
  ],
  [
    'an image with a data URL',
    `<svg ${SVG}><image href="data:image/png;base64,iVBORw0KGgo=" width="10" height="10"/>${circle}</svg>`,
  ],
  [
    'an image that tracks the viewer',
    `<svg ${SVG} ${XLINK}><image xlink:href="https://evil.example/pixel.png" width="1" height="1"/>${circle}</svg>`,
  ],
  [
    'a feImage fetching a URL',
    `<svg ${SVG}><filter id="f"><feImage href="https://evil.example/x.png"/></filter><circle r="4" filter="url(#f)"/></svg>`,
  ],
  [
    'a style element with @import',
    `<svg ${SVG}><style>@import url(https://evil.example/x.css);</style>${circle}</svg>`,
  ],
  [
    'a style element with an escaped @import',
    `<svg ${SVG}><style>@\\69mport 'https://evil.example/x.css';</style>${circle}</svg>`,
  ],
  [
    'a style element with url(http...)',
    `<svg ${SVG}><style>circle { fill: url(https://evil.example/p.svg#g) }</style>${circle}</svg>`,
  ],
  [
    'a style element with url split by a comment',
    `<svg ${SVG}><style>circle { fill: u/**/rl(https://evil.example/p.svg#g) }</style>${circle}</svg>`,
  ],
  [
    'a style element with image-set()',
    `<svg ${SVG}><style>circle { background: image-set("https://evil.example/x.png" 1x) }</style>${circle}</svg>`,
  ],
  [
    'a style element glued together around a child',
    `<svg ${SVG}><style>@imp<a>x</a>ort url(https://evil.example/x.css);</style>${circle}</svg>`,
  ],
  [
    'a style attribute with url(http...)',
    `<svg ${SVG}><circle r="4" style="fill: url('https://evil.example/p.svg#g')"/></svg>`,
  ],
  [
    'a style attribute with a data URL',
    `<svg ${SVG}><circle r="4" style="background-image:url(data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)"/></svg>`,
  ],
  [
    'a fill attribute with an escaped url()',
    `<svg ${SVG}><circle r="4" fill="u\\72l(https://evil.example/p.svg#g)"/></svg>`,
  ],
  [
    'a mask attribute pointing at another site',
    `<svg ${SVG}><circle r="4" mask="url(https://evil.example/m.svg#m)"/></svg>`,
  ],
  [
    'set changing an attribute to script',
    `<svg ${SVG}><a><set attributeName="href" to="javascript:alert(1)"/>${circle}</a></svg>`,
  ],
  [
    'animate changing an attribute to script',
    `<svg ${SVG}><a><animate attributeName="href" values="javascript:alert(1)"/>${circle}</a></svg>`,
  ],
  [
    'an XML events handler',
    `<svg ${SVG} xmlns:ev="http://www.w3.org/2001/xml-events"><handler ev:event="load">alert(1)</handler>${circle}</svg>`,
  ],
  ['an iframe inside the SVG', `<svg ${SVG}><iframe src="https://evil.example"></iframe>${circle}</svg>`],
  [
    'an xml-stylesheet processing instruction',
    `<svg ${SVG}><?xml-stylesheet href="https://evil.example/x.css"?>${circle}</svg>`,
  ],
  ['a comment closing early', `<svg ${SVG}><!--><script>alert(1)</script>-->${circle}</svg>`],
]

describe('sanitizeSvg', () => {
  it.each(attacks)('removes %s', (_name, payload) => {
    const svg = clean(payload)
    expectInert(svg)
    expectStandaloneSvg(svg)
    expect(svg).toContain('<circle')
  })

  it.each([
    [
      'a DOCTYPE entity holding a script',
      `<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]><svg ${SVG}><text>&x;</text>${circle}</svg>`,
    ],
    [
      'an external entity (XXE)',
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg ${SVG}><text>&xxe;</text>${circle}</svg>`,
    ],
    [
      'nested entities (billion laughs)',
      `<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg ${SVG}><text>&c;</text>${circle}</svg>`,
    ],
    [
      'a DOCTYPE after a processing instruction',
      `<?xml-stylesheet href="a.css"?><!DOCTYPE svg [<!ENTITY a "x">]><svg ${SVG}>${circle}&a;</svg>`,
    ],
  ])('refuses %s: entities are never declared, let alone expanded', (_name, input) => {
    expect(sanitizeSvg(input)).toEqual({ ok: false, reason: svgRejections.doctype })
  })

  it.each([
    ['two SVG elements', `<svg ${SVG}>${circle}</svg><svg ${SVG}>${circle}</svg>`],
    ['text after the SVG', `<svg ${SVG}>${circle}</svg> trailing`],
    ['an unclosed element', `<svg ${SVG}><g>${circle}</svg>`],
    ['the </p> namespace-confusion mXSS', `<svg></p><style><a id="</style><img src=1 onerror=alert(1)>"></svg>`],
    ['an HTML void element', `<svg ${SVG}><img src="x" onerror="alert(1)">${circle}</svg>`],
    [
      'an embed breaking out of the SVG',
      `<svg ${SVG}><embed src="data:text/html,<script>alert(1)</script>"/>${circle}</svg>`,
    ],
    [
      'markup inside an attribute (mXSS)',
      `<svg ${SVG}><style><a title="</style><img src=x onerror=alert(1)>"></a></style>${circle}</svg>`,
    ],
    ['an undefined entity', `<svg ${SVG}><text>&bogus;</text></svg>`],
  ])('refuses %s as not well-formed, saying where', (_name, input) => {
    const result = sanitizeSvg(input)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.reason).toMatch(/^This SVG is not well-formed XML \(line 1, column \d+: .+\)\.$/)
  })

  it('reports the line of a mistake in what was pasted, after a prolog', () => {
    const result = sanitizeSvg(`<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg ${SVG}>\n${circle}\n</g></svg>`)
    expect(result).toEqual({ ok: false, reason: svgRejections.notWellFormed('line 5, column 4: unexpected close tag') })
  })

  it.each([
    [
      'nested more than 100 deep',
      `<svg ${SVG}>${'<g>'.repeat(svgLimits.depth)}${circle}${'</g>'.repeat(svgLimits.depth)}</svg>`,
    ],
    ['nested deep in self-closing-free markup', `<svg ${SVG}>${'<g><!-- </g> -->'.repeat(200)}</svg>`],
    ['with more than 2,000 elements', `<svg ${SVG}>${circle.repeat(svgLimits.elements)}</svg>`],
    [
      'with an element of more than 100 attributes',
      `<svg ${SVG}><path ${Array.from({ length: 101 }, (_, i) => `a${i}="1"`).join(' ')}/></svg>`,
    ],
    [
      'with more than 20,000 attributes',
      `<svg ${SVG}>${`<path ${Array.from({ length: 20 }, (_, i) => `a${i}="1"`).join(' ')}/>`.repeat(1_001)}</svg>`,
    ],
  ])('refuses an SVG %s before building it', (_name, input) => {
    expect(sanitizeSvg(input)).toEqual({ ok: false, reason: svgRejections.tooComplex })
  })

  it('refuses hostile markup quickly instead of building it', () => {
    // Each of these would take minutes in a quadratic scan or tree build; the test timeout is the guard.
    const size = 200 * 1024
    for (const input of [
      '<a'.repeat(size / 2),
      `<svg>${'<a'.repeat(size / 2)}`,
      '<!--'.repeat(size / 4),
      `${'<!---->'.repeat(size / 8)}<svg>${circle}</svg>`,
      `<svg a="${'<a "'.repeat(size / 4)}`,
      `<svg>${'<g>'.repeat(size / 3)}`,
      `<svg><rect style="${'/*'.repeat(size / 2)}"/></svg>`,
      `<svg><rect fill="${'url('.repeat(size / 4)}"/></svg>`,
    ]) {
      expect(sanitizeSvg(input).ok).toBeTypeOf('boolean')
    }
  })

  it('takes an SVG nested 100 deep and one with 2,000 elements', () => {
    const depth = svgLimits.depth - 1
    expect(sanitizeSvg(`<svg ${SVG}>${'<g>'.repeat(depth)}${circle}${'</g>'.repeat(depth)}</svg>`).ok).toBe(true)
    expect(sanitizeSvg(`<svg ${SVG}>${circle.repeat(svgLimits.elements - 1)}</svg>`).ok).toBe(true)
  })

  it('keeps a link to a fragment and removes the one to elsewhere', () => {
    const svg = clean(
      `<svg ${SVG} ${XLINK}><defs><circle id="dot" r="2"/></defs><use xlink:href="#dot"/><use href="https://evil.example/#dot"/></svg>`,
    )
    expect(svg).toContain('xlink:href="#dot"')
    expect(svg).not.toContain('evil')
  })

  it('keeps paths, shapes and attributes of an ordinary diagram', () => {
    const input =
      `<svg ${SVG} viewBox="0 0 200 100" width="200" height="100">` +
      '<path d="M10 80 Q 95 10 180 80" stroke="black" stroke-width="2" fill="none"/>' +
      '<polygon points="10,10 40,10 25,40" fill="#ff0"/>' +
      '<g transform="translate(50 50) rotate(45)"><rect x="-5" y="-5" width="10" height="10" fill="rgb(0, 128, 255)"/></g>' +
      '</svg>'
    const svg = clean(input)
    expect(svg).toBe(input)
    expectStandaloneSvg(svg)
  })

  it('keeps Devanagari text exactly', () => {
    const svg = clean(
      `<svg ${SVG} viewBox="0 0 100 20"><text x="0" y="15" font-size="12">नेपालको राजधानी काठमाडौं हो।</text></svg>`,
    )
    expect(svg).toContain('<text x="0" y="15" font-size="12">नेपालको राजधानी काठमाडौं हो।</text>')
  })

  it('keeps gradients, patterns, filters and clip paths referenced by url(#id)', () => {
    const input =
      `<svg ${SVG} viewBox="0 0 10 10">` +
      '<defs><linearGradient id="sky" x1="0" x2="0" y1="0" y2="1"><stop offset="0%" stop-color="#00f"/><stop offset="100%" stop-color="#fff"/></linearGradient>' +
      '<clipPath id="clip"><circle cx="5" cy="5" r="5"/></clipPath>' +
      '<filter id="blur"><feGaussianBlur stdDeviation="0.5"/></filter></defs>' +
      `<rect width="10" height="10" fill="url(#sky)" clip-path="url('#clip')" filter="url(#blur)" style="stroke: url(#sky)"/>` +
      '</svg>'
    const svg = clean(input)
    expect(svg).toContain('fill="url(#sky)"')
    expect(svg).toContain(`clip-path="url('#clip')"`)
    expect(svg).toContain('filter="url(#blur)"')
    expect(svg).toContain('style="stroke: url(#sky)"')
    expect(svg).toContain('<feGaussianBlur stdDeviation="0.5"/>')
    expectStandaloneSvg(svg)
  })

  it('keeps a harmless style element', () => {
    const svg = clean(
      `<svg ${SVG}><style>.a { fill: red } .b > .c { stroke: url(#g) }</style><circle class="a" r="2"/></svg>`,
    )
    expect(svg).toContain('.a { fill: red }')
    expect(svg).toContain('url(#g)')
  })

  it('accepts what drawing tools write: XML declaration, DOCTYPE, comments, CDATA styles, &nbsp;', () => {
    const svg = clean(
      '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!-- Created with Inkscape -->\n' +
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
        `<svg ${SVG} ${XLINK} version="1.1" width="20" height="20"><style><![CDATA[.x{fill:blue}]]></style>` +
        '<text class="x" y="10">A&nbsp;B</text></svg>\n',
    )
    expect(svg).toContain('.x{fill:blue}')
    expect(svg).toContain('A\u00a0B')
    expectStandaloneSvg(svg)
  })

  it('declares the SVG and XLink namespaces when a paste from inline HTML leaves them out', () => {
    expect(clean('<svg viewBox="0 0 1 1"><circle r="1"/></svg>')).toBe(
      `<svg ${SVG} viewBox="0 0 1 1"><circle r="1"/></svg>`,
    )
    const svg = clean('<svg><defs><circle id="c" r="1"/></defs><use xlink:href="#c"/></svg>')
    expect(svg).toBe(`<svg ${SVG} ${XLINK}><defs><circle id="c" r="1"/></defs><use xlink:href="#c"/></svg>`)
    expectStandaloneSvg(svg)
  })

  it('drops a namespace declaration that is wrong', () => {
    const svg = clean(
      `<svg ${SVG} xmlns:xlink="http://evil.example/ns" xmlns:ev="http://www.w3.org/2001/xml-events"><circle r="3"/></svg>`,
    )
    expect(svg).toBe(`<svg ${SVG}><circle r="3"/></svg>`)
  })

  it('reads the HTML entities hand-written SVG uses', () => {
    expect(clean(`<svg ${SVG}><text>90&deg; &times; 2 &nbsp;&le; &pi;</text></svg>`)).toContain(
      '<text>90° × 2 \u00a0≤ π</text>',
    )
  })

  it.each([
    ['plain text', 'a triangle'],
    ['HTML', '<div><b>bold</b></div>'],
    ['an HTML image with an onerror handler', '<img src="x" onerror="alert(1)">'],
    ['an SVG wrapped in HTML', `<p><svg ${SVG}>${circle}</svg></p>`],
    ['MathML', '<math><mi>x</mi></math>'],
    ['a script on its own', '<script>alert(1)</script>'],
  ])('refuses %s as not SVG', (_name, input) => {
    expect(sanitizeSvg(input)).toEqual({ ok: false, reason: svgRejections.notSvg })
  })

  it.each([
    ['an empty SVG', `<svg ${SVG}></svg>`],
    ['an SVG that is only a script', `<svg ${SVG} onload="alert(1)"><script>alert(2)</script></svg>`],
    [
      'an SVG whose only content is foreignObject HTML',
      `<svg ${SVG}><foreignObject><div>hello</div></foreignObject></svg>`,
    ],
    [
      'an SVG whose only image is external',
      `<svg ${SVG}><image href="https://evil.example/x.png" width="10" height="10"/></svg>`,
    ],
  ])('refuses %s as empty after sanitising', (_name, input) => {
    expect(sanitizeSvg(input)).toEqual({ ok: false, reason: svgRejections.emptyAfterSanitising })
  })

  it('gives the same answer on repeated calls (the shared window keeps no state)', () => {
    const input = `<svg ${SVG}><script>alert(1)</script>${circle}</svg>`
    expect(sanitizeSvg(input)).toEqual(sanitizeSvg(input))
    expect(sanitizeSvg('nope').ok).toBe(false)
    expect(sanitizeSvg(input).ok).toBe(true)
  })
})

import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { AnnotatedPage, pageSources, pointOnSheet, type AnnotationLabels } from './annotated-page'
import { readAnnotationDoc } from './annotation-doc'

const labels: AnnotationLabels = {
  page: 'Page 1',
  stamps: { tick: 'Tick', cross: 'Cross', question: 'Question mark', good: 'राम्रो' },
  item: (id) => (id === 7 ? '+2' : undefined),
  note: 'Note',
  box: 'Box',
  ink: 'Pen marks',
}
const page = { url: '/api/written-pages/1/?signature=x', width: 2000, height: 1000 }

describe('readAnnotationDoc', () => {
  it('keeps well-formed marks and skips the rest', () => {
    const doc = readAnnotationDoc({
      v: 1,
      marks: [
        { k: 'stamp', code: 'tick', x: 100, y: 200 },
        { k: 'stamp', code: 'smiley', x: 1, y: 1 },
        { k: 'box', x: 1, y: 2, w: 3 },
        {
          k: 'ink',
          points: [
            [1, 2],
            [3, 'x'],
            [5, 6],
          ],
          width: 25,
          color: '#d00000',
        },
        { k: 'note', x: 20_000, y: 1, text: 'off the page' },
        'junk',
      ],
    })
    expect(doc.marks).toEqual([
      { k: 'stamp', code: 'tick', x: 100, y: 200 },
      {
        k: 'ink',
        points: [
          [1, 2],
          [5, 6],
        ],
        width: 25,
        color: '#d00000',
      },
    ])
    expect(readAnnotationDoc(null).marks).toEqual([])
    expect(readAnnotationDoc({ marks: 'no' }).marks).toEqual([])
  })
})

describe('AnnotatedPage', () => {
  it('draws every kind of mark in the page’s pixels and lists them for screen readers', () => {
    const { container } = render(
      <AnnotatedPage
        page={page}
        labels={labels}
        doc={{
          v: 1,
          marks: [
            {
              k: 'ink',
              points: [
                [1000, 1000],
                [5000, 5000],
              ],
              width: 25,
              color: '#d00000',
            },
            { k: 'stamp', code: 'good', x: 5000, y: 5000 },
            { k: 'box', x: 1000, y: 2000, w: 5000, h: 1000 },
            { k: 'note', x: 9000, y: 100, text: 'Give an example' },
            { k: 'item', item_id: 7, x: 9500, y: 9000 },
          ],
        }}
      />,
    )
    const svg = container.querySelector('svg')!
    expect(svg).toHaveAttribute('viewBox', '0 0 2000 1000')
    expect(svg).toHaveAttribute('aria-hidden', 'true')
    expect(screen.getByRole('img', { name: 'Page 1' })).toHaveAttribute('src', page.url)
    // A box at 10 % / 20 % of a 2000 x 1000 page, half as wide and a tenth as tall: 200, 200, 1000, 100 pixels.
    const box = svg.querySelector('rect[fill="none"]')!
    expect([
      box.getAttribute('x'),
      box.getAttribute('y'),
      box.getAttribute('width'),
      box.getAttribute('height'),
    ]).toEqual(['200', '200', '1000', '100'])
    expect(svg.querySelector('path[fill="#d00000"]')?.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+Q.*Z$/)
    // The note is kept inside the page however near its right edge it was placed.
    expect(Number(svg.querySelector('foreignObject')!.getAttribute('x'))).toBeLessThanOrEqual(2000 - 600)
    expect(svg).toHaveTextContent('राम्रो')
    expect(svg).toHaveTextContent('+2')
    const spoken = [...container.querySelectorAll('.visually-hidden li')].map((item) => item.textContent)
    expect(spoken).toEqual(['राम्रो', 'Box', 'Note: Give an example', '+2', 'Pen marks'])
  })

  it('offers the phone rendition and the full page for the browser to choose by the width drawn', () => {
    const phone = { ...page, phone_url: '/api/written-pages/1/?signature=x&size=phone' }
    expect(pageSources(phone)).toEqual({
      src: page.url,
      srcSet: '/api/written-pages/1/?signature=x&size=phone 720w, /api/written-pages/1/?signature=x 2000w',
    })
    // No wider than the rendition: the rendition is the whole page, so it is the only one.
    expect(pageSources({ ...phone, width: 600, height: 800 })).toEqual({ src: phone.phone_url })
    expect(pageSources({ ...phone, width: 720, height: 800 })).toEqual({ src: phone.phone_url })
    // A page without one (a payload of an older server) is the full page.
    expect(pageSources(page)).toEqual({ src: page.url })

    const doc = { v: 1 as const, marks: [] }
    const { rerender } = render(
      <AnnotatedPage page={phone} labels={labels} doc={doc} sizes="calc(100vw - 4rem)" priority />,
    )
    const image = screen.getByRole('img', { name: 'Page 1' })
    expect(image).toHaveAttribute('srcset', pageSources(phone).srcSet)
    expect(image).toHaveAttribute('sizes', 'calc(100vw - 4rem)')
    // The screen's first page is fetched at once and first; any other only as it scrolls near.
    expect(image).toHaveAttribute('loading', 'eager')
    expect(image).toHaveAttribute('fetchpriority', 'high')
    rerender(<AnnotatedPage page={phone} labels={labels} doc={doc} />)
    expect(image).toHaveAttribute('sizes', '100vw')
    expect(image).toHaveAttribute('loading', 'lazy')
    expect(image).toHaveAttribute('fetchpriority', 'auto')
  })

  it('turns a sideways page’s box to the page’s shape', () => {
    const { container } = render(<AnnotatedPage page={page} labels={labels} doc={{ v: 1, marks: [] }} rotation={90} />)
    const frame = container.firstElementChild as HTMLElement
    expect(frame.style.aspectRatio).toBe('1000 / 2000')
    expect((frame.firstElementChild as HTMLElement).style.transform).toContain('rotate(90deg)')
    expect(container.querySelector('.visually-hidden')).toBeNull()
  })
})

describe('pointOnSheet', () => {
  const sheet = (rect: Partial<DOMRect>) =>
    ({ getBoundingClientRect: () => ({ left: 0, top: 0, width: 0, height: 0, ...rect }) }) as unknown as HTMLElement

  it('reads a point as fractions of the page', () => {
    expect(pointOnSheet(50, 25, sheet({ width: 200, height: 100 }), 0)).toEqual([0.25, 0.25])
  })

  it('turns the point back on a rotated page: the top-right corner on screen is the page’s top-left at 90°', () => {
    // A 200 x 100 page turned a quarter clockwise shows as 100 wide and 200 tall.
    const [x, y] = pointOnSheet(100, 0, sheet({ width: 100, height: 200 }), 90)
    expect(x).toBeCloseTo(0)
    expect(y).toBeCloseTo(0)
    const [x2, y2] = pointOnSheet(0, 200, sheet({ width: 100, height: 200 }), 90)
    expect(x2).toBeCloseTo(1)
    expect(y2).toBeCloseTo(1)
  })
})

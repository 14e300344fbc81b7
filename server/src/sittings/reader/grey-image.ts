/** An 8-bit single-channel image, row-major. */
export interface GreyImage {
  data: Uint8Array
  width: number
  height: number
}

export interface Point {
  x: number
  y: number
}

/** The grey level at a fractional position (bilinear); outside the image reads as black, never throws. */
export function sampleGrey(image: GreyImage, x: number, y: number): number {
  const { data, width, height } = image
  if (!(x >= 0 && y >= 0 && x <= width - 1 && y <= height - 1)) return 0
  const x0 = Math.floor(x)
  const y0 = Math.floor(y)
  const x1 = Math.min(x0 + 1, width - 1)
  const y1 = Math.min(y0 + 1, height - 1)
  const fx = x - x0
  const fy = y - y0
  const top = data[y0 * width + x0]! * (1 - fx) + data[y0 * width + x1]! * fx
  const bottom = data[y1 * width + x0]! * (1 - fx) + data[y1 * width + x1]! * fx
  return top * (1 - fy) + bottom * fy
}

/** The value below which `fraction` of `values` lie (values are sorted in place). */
export function percentile(values: number[] | Float64Array, fraction: number): number {
  if (values.length === 0) return 0
  values.sort((a, b) => a - b)
  const index = Math.min(values.length - 1, Math.max(0, Math.round(fraction * (values.length - 1))))
  return values[index]!
}

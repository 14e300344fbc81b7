// How the photo benches (bench:omr, bench:booklets) draw one phone photo's conditions from a seeded random source:
// the same draws in the same order, so a seed gives the same photos in both.

/** Photo `n`'s conditions: framing, tilt, turn, light, blur and JPEG quality, as a teacher's phone varies them. */
export function phonePhotoFor(n, random, megapixels) {
  const lights = ['even', 'gradient', 'shadow']
  return {
    seed: n + 1,
    megapixels,
    fill: 0.6 + random() * 0.35,
    tiltDeg: random() * 25,
    rotation: [0, 90, 180, 270][Math.floor(random() * 4)],
    smallAngleDeg: (random() - 0.5) * 20,
    light: lights[Math.floor(random() * 3)],
    blurSigma: random() * 1.5,
    jpegQuality: 60 + Math.floor(random() * 31),
  }
}

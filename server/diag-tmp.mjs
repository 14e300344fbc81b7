const { CONDITIONS, markedSheetSvg, photographSheet, sheetLayoutOf, seededRandom } = await import('./test/fixtures/sheet-photos.ts')
const { loadGrey, locatePage, readSheet } = await import('./src/sittings/reader/read-sheet.ts')
const { sightBlocks } = await import('./src/sittings/reader/bubble-sight.ts')
const conds = (process.env.C ?? CONDITIONS.join(',')).split(',')
const N = Number(process.env.N ?? 3)
const MP = Number(process.env.MP ?? 4)
for (const condition of conds) {
  const all = []
  let wrong = 0, flagged = 0, refused = [], offs = []
  for (let n = 0; n < N; n++) {
    const random = seededRandom(n * 7 + 3)
    const sheet = { secret: 's', sittingId: 5, labels: 'latin', optionCounts: Array.from({length: 100}, () => 4),
      holder: { kind: 'roster', learnerName: 'L', rollNumber: 123, set: 'A' }, learnerId: 100001, marks: [] }
    const truth = []
    for (let q = 0; q < 100; q++) { if (random() < 0.1) { truth.push(null); continue } const o = Math.floor(random()*4); truth.push('ABCD'[o]); sheet.marks.push({ question: q, option: o, style: ['pen','blue','pencil'][Math.floor(random()*3)] }) }
    const spec = { seed: 100 + n, megapixels: MP, fill: 0.6 + random() * 0.35, tiltDeg: random() * 25, rotation: [0,90,180,270][Math.floor(random()*4)], smallAngleDeg: (random()-0.5)*20, light: ['even','gradient','shadow'][Math.floor(random()*3)], blurSigma: random()*1.5, jpegQuality: 60 + Math.floor(random()*31), condition }
    if (condition === 'lens') Object.assign(spec, { fill: 0.9, tiltDeg: 5 })
    if (condition === 'tight-crop') Object.assign(spec, { tiltDeg: 2, smallAngleDeg: 1 })
    const jpeg = await photographSheet(markedSheetSvg(sheet, n), spec)
    const result = await readSheet(jpeg, { secret: 's', sittingId: 5, layoutFor: () => sheetLayoutOf(sheet) })
    if (!result.ok) { refused.push(result.refusal); continue }
    result.answers.forEach(({ answer }, q) => { if (typeof answer === 'object' && answer) flagged++; else if (answer !== truth[q]) wrong++ })
    const grey = await loadGrey(jpeg); const located = locatePage(grey)
    const layout = sheetLayoutOf(sheet)
    const blocks = []; for (let i = 0; i < 100; i += 4) blocks.push(layout.questions.slice(i, i+4).flatMap(q => q.options))
    for (const b of sightBlocks(grey, located.toImage, blocks)) for (const s of b) { all.push(s.contrast); offs.push(Math.hypot(s.at.x_mm - s.bubble.x_mm, s.at.y_mm - s.bubble.y_mm)) }
  }
  all.sort((a,b)=>a-b); offs.sort((a,b)=>a-b)
  const p = (a, f) => a.length ? a[Math.floor(f*(a.length-1))].toFixed(3) : '-'
  console.log(condition, 'wrong', wrong, 'flagged', flagged, 'refused', refused.join(), 'contrast p0', p(all,0), 'p1', p(all,0.01), 'p5', p(all,0.05), 'p50', p(all,0.5), 'offset p50', p(offs,0.5), 'max', p(offs,1))
}

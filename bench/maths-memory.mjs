// npm run bench:maths-memory: the server's memory before and after importing 1.2 MB CSVs of 300 formulas
// (issue 41 M3, docs/decisions/047). Budget: after each import, with a full GC, the V8 heap in use is within 50 MB of
// what it was before the first (RSS is printed beside it: V8 and malloc keep some pages after a GC).
//  1. The attacker's file: 300 rows, each one `\ce{}` reaction of about 4 KB (refused now: too many expansions).
//  2. A file that passes every bound: 300 rows of six texts, each a `\ce{}` of about 600 characters (about 21,000
//     characters of MathML each), dry run and commit: 38 million characters rendered, far past the render cache.
import { startServer } from './lib.mjs'

const rows = Number(process.env.BENCH_ROWS ?? 300)
const MB = 1e6
process.env.BENCH_NODE_ARGS ??= '--expose-gc --import ./bench/heap-probe.mjs'

const csvField = (text) => `"${text.replaceAll('"', '""')}"`
const reaction = (n, repeat) =>
  `$\\ce{${Array.from({ length: repeat }, (_, k) => `CH3COOH <=> CH3COO- + H+ ${n}-${k} `).join('')}}$`

function attackerCsv() {
  const lines = ['question_en,option_a_en,option_b_en,correct']
  for (let n = 0; n < rows; n++) lines.push([csvField(reaction(n, 130)), 'x', 'y', 'A'].join(','))
  return lines.join('\r\n')
}

function passingCsv() {
  const columns = ['question_en', 'question_ne', 'hint_en', 'hint_ne', 'option_a_en', 'option_b_en']
  const lines = [[...columns, 'correct'].join(',')]
  for (let n = 0; n < rows; n++)
    lines.push([...columns.map((_, c) => csvField(reaction(`${n}.${c}`, 18))), 'A'].join(','))
  return lines.join('\r\n')
}

const server = await startServer()
const failures = []
try {
  const token = await server.seed({
    admin: 'memoryadmin',
    phone: '9800000001',
    learners: 1,
    prefix: 'memorylearner',
    password: 'Bench-Password-42',
  })
  const headers = { authorization: `Bearer ${token}` }
  /** The server's memory after a full GC, read from its heap probe. */
  const memory = async () => {
    const seen = server.stderr().length
    process.kill(server.pid, 'SIGWINCH')
    for (let tries = 0; tries < 100; tries++) {
      const line = /HEAP (\{.*\})/.exec(server.stderr().slice(seen))
      if (line) return JSON.parse(line[1])
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error('the heap probe did not answer: is the server built and bench/heap-probe.mjs preloaded?')
  }
  const importCsv = async (csv, name) => {
    const started = performance.now()
    const form = new FormData()
    form.append('file', new Blob([csv]), name)
    const response = await fetch(`${server.baseUrl}/api/admin/imports/`, { method: 'POST', headers, body: form })
    if (response.status !== 201) throw new Error(`dry run: ${response.status} ${await response.text()}`)
    const run = await response.json()
    const dryRunSeconds = (performance.now() - started) / 1000
    if (run.summary.ok + run.summary.fixed === 0) return { ...run.summary, dryRunSeconds }
    const done = await fetch(`${server.baseUrl}/api/admin/imports/${run.import_id}/commit/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    })
    if (done.status !== 200) throw new Error(`commit: ${done.status} ${await done.text()}`)
    const commitSeconds = (performance.now() - started) / 1000 - dryRunSeconds
    return { ...run.summary, imported: (await done.json()).imported, dryRunSeconds, commitSeconds }
  }
  const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`
  const show = (label, figures) =>
    console.log(
      `${label.padEnd(12)} heap in use ${mb(figures.heapUsed)} (reserved ${mb(figures.heapTotal)}), RSS ${mb(figures.rss)}`,
    )

  // One small import first, so the code paths (readers, KaTeX, mhchem) are loaded before "before" is measured.
  await importCsv('question_en,option_a_en,option_b_en,correct\r\n$\\ce{H2O}$?,x,y,A', 'warm.csv')
  const before = await memory()
  show('before', before)
  for (const [label, csv] of [
    ['attacker: 300 reactions of about 4 KB', attackerCsv()],
    ['passing: 300 rows x 6 texts of 600 chars', passingCsv()],
  ]) {
    const { dryRunSeconds, commitSeconds, ...summary } = await importCsv(csv, 'maths.csv')
    const after = await memory()
    const times = `dry run ${dryRunSeconds.toFixed(1)} s${commitSeconds ? `, commit ${commitSeconds.toFixed(1)} s` : ''}`
    console.log(`${label}: ${mb(csv.length)} CSV, ${times}, ${JSON.stringify(summary)}`)
    show('  after', after)
    const grew = after.heapUsed - before.heapUsed
    console.log(`  heap grew ${mb(grew)}, RSS grew ${mb(after.rss - before.rss)} (budget: heap within 50 MB)`)
    if (grew > 50 * MB) failures.push(label)
  }
} finally {
  await server.stop()
}
if (failures.length > 0) {
  console.error(`Over budget: ${failures.join(', ')}`)
  process.exitCode = 1
}

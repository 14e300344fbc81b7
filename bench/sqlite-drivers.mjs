// node bench/sqlite-drivers.mjs: the SQLite drivers this Node.js line can load, on the statements the server's hot
// paths run (a cached point read, a write transaction, a statement prepared anew), in operations per second.
// Evidence for docs/decisions/010-sqlite-driver-per-node-line.md; run it with each line's node binary.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const major = Number(process.versions.node.split('.')[0])
const drivers = []
drivers.push({
  name: major >= 22 ? 'better-sqlite3 13' : 'better-sqlite3 12',
  open: (file) => new (require(major >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20'))(file),
})
try {
  const { DatabaseSync } = require('node:sqlite')
  drivers.push({ name: 'node:sqlite', open: (file) => new DatabaseSync(file) })
} catch {
  // node:sqlite arrived in Node 22.5; Node 20 has none.
}

function opsPerSecond(work, seconds = 1.5) {
  let count = 0
  const until = performance.now() + seconds * 1000
  while (performance.now() < until) for (let i = 0; i < 200; i++) work(count++)
  return Math.round(count / seconds)
}

const rows = []
for (const driver of drivers) {
  const db = driver.open(':memory:')
  db.exec('create table answers (id integer primary key, attempt_id integer, question_id integer, option_id integer)')
  db.exec('create index answers_attempt on answers (attempt_id, question_id)')
  const insert = db.prepare('insert into answers (attempt_id, question_id, option_id) values (?, ?, ?)')
  db.exec('begin')
  for (let i = 0; i < 100_000; i++) insert.run(i % 1000, i, i % 4)
  db.exec('commit')
  const read = db.prepare('select id, question_id, option_id from answers where attempt_id = ? and question_id = ?')
  const write = db.prepare('update answers set option_id = ? where id = ?')
  rows.push({
    node: process.version,
    driver: driver.name,
    'point read /s': opsPerSecond((i) => read.get(i % 1000, i % 100_000)),
    'write transaction /s': opsPerSecond((i) => {
      db.exec('begin immediate')
      write.run(i % 4, (i % 100_000) + 1)
      db.exec('commit')
    }),
    'prepare + read /s': opsPerSecond((i) => db.prepare(`select ${i % 5000} as n`).get()),
  })
  db.close()
}
console.table(rows)

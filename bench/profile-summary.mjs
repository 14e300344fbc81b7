// Where a server profile's CPU went: `node bench/profile-summary.mjs FILE.cpuprofile [--part=N] [--top=N]`.
// The profile of bench/profile-question.mjs or bench/profile-storm.mjs (BENCH_NODE_ARGS="--cpu-prof ...") holds the
// start-up and the seeding too; it is cut into busy parts at every pause of --gap ms (default 100) or more, and the summary is of
// part N (counted from 1; negative from the end; default the longest, e.g. -1 for a storm's submits), with:
// - each stage of the request (the first of these functions on the sample's stack, leaf first, names it), and
// - what ran at the leaf (SQL in the drivers, Node's HTTP, Fastify, zod, Kysely, the garbage collector...),
// in µs per request when --requests=N says how many requests the part served, else in ms.
import { readFileSync } from 'node:fs'

const args = Object.fromEntries(
  process.argv.slice(3).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=')
    return [key, value ?? 'true']
  }),
)
const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
const parentOf = new Map()
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)

// Sample times, and the busy parts between pauses (idle samples for 300 ms or more).
const times = []
let at = profile.startTime
for (const delta of profile.timeDeltas) times.push((at += delta))
const gap = Number(args.gap ?? 100) * 1000
const isIdle = (index) => nodes.get(profile.samples[index]).callFrame.functionName === '(idle)'
const parts = []
let part
let idleSince
for (let i = 0; i < profile.samples.length; i++) {
  if (isIdle(i)) {
    idleSince ??= times[i]
    if (part && times[i] - idleSince >= gap) {
      parts.push(part)
      part = undefined
    }
    continue
  }
  idleSince = undefined
  part ??= { from: i, to: i }
  part.to = i
}
if (part) parts.push(part)
const duration = (p) => times[p.to] - times[p.from]
console.log(
  'busy parts (ms from the profile start, length ms):',
  parts
    .map(
      (p, i) =>
        `${i + 1}: ${((times[p.from] - profile.startTime) / 1000).toFixed(0)}+${(duration(p) / 1000).toFixed(0)}`,
    )
    .join(', '),
)
const chosen =
  args.part === undefined
    ? parts.reduce((longest, p) => (duration(p) > duration(longest) ? p : longest))
    : parts.at(Number(args.part) > 0 ? Number(args.part) - 1 : Number(args.part))
const requests = args.requests === undefined ? undefined : Number(args.requests)
const unit = requests ? 'µs/request' : 'ms'
const amount = (microseconds) => (requests ? microseconds / requests : microseconds / 1000)

// Stages of a request (our functions keep their names in the bundle), most specific first.
const stages = [
  [
    'token check (fast-jwt, the verified-token cache)',
    (f) => /fast-jwt/.test(f.url) || f.functionName === 'verifyAccessCached',
  ],
  ['authentication (the hook)', (f) => f.functionName === 'authenticate' && /main\.js/.test(f.url)],
  ['the paper cache', (f) => /main\.js/.test(f.url) && /^(paperFor|withAnswerKeys|currentPaper)$/.test(f.functionName)],
  ['the attempt lookup', (f) => /main\.js/.test(f.url) && /^(attemptInProgress|settledAttempts)$/.test(f.functionName)],
  // Decision 080: a finish owes its cards as one row; a background pass (or the deck's reader) writes them later.
  [
    'owed practice cards written (background pass)',
    (f) => /main\.js/.test(f.url) && /^(payOldestOwedCards|payOwedCards|writeOwed|owedRowsOf)$/.test(f.functionName),
  ],
  [
    'practice cards',
    (f) => /main\.js/.test(f.url) && /^(putCardsInFirstBox|addMistakesToDeck|oweCards)$/.test(f.functionName),
  ],
  ['outcome (score, finish, tally)', (f) => /main\.js/.test(f.url) && /^(markAttempt|finish)$/.test(f.functionName)],
  [
    'response body (fast-json-stringify)',
    (f) =>
      /fast-json-stringify/.test(f.url) ||
      (f.url === '' && /^anonymous/.test(f.functionName)) ||
      (/main\.js/.test(f.url) && f.functionName === 'serialize'),
  ],
  ['request body (JSON parse, zod)', (f) => /content-type-parser|validation\.js|fastify-type-provider-zod/.test(f.url)],
  ['compression', (f) => /@fastify\/compress|node:zlib/.test(f.url)],
  ['logging (pino)', (f) => /pino/.test(f.url)],
  ['metrics (prom-client)', (f) => /prom-client/.test(f.url)],
  [
    'group commit (BEGIN, COMMIT, savepoints)',
    (f) => /main\.js/.test(f.url) && /^(commitGroups|runGrouped|runAlone)$/.test(f.functionName),
  ],
  ['route handler (our services)', (f) => /main\.js/.test(f.url)],
  ['Fastify (routing, hooks, reply)', (f) => /fastify\/|find-my-way|avvio/.test(f.url)],
  ['Node (HTTP parsing, sockets, streams, timers)', (f) => /^node:/.test(f.url)],
]
// The innermost stage on the stack names the sample: what compression's hook calls on (the socket write) is Node's.
const stageOf = (id) => {
  for (let node = id; node !== undefined; node = parentOf.get(node)) {
    const frame = nodes.get(node).callFrame
    for (const [name, test] of stages) if (test(frame)) return name
  }
  const leaf = nodes.get(id).callFrame
  return `other: ${leaf.functionName || leaf.url || '(anonymous)'}`
}
const leafKinds = [
  ['SQL: precompiled statements (better-sqlite3)', (f) => /main\.js/.test(f.url) && f.functionName === 'run'],
  [
    'SQL: BEGIN, SAVEPOINT, RELEASE, COMMIT of the group commit',
    (f) => /main\.js/.test(f.url) && f.functionName === 'runGroupStatement',
  ],
  ["SQL: through Kysely's driver", (f) => /kysely\/dist\/esm\/dialect/.test(f.url)],
  ['Kysely (building, compiling, plugins)', (f) => /kysely/.test(f.url)],
  ['better-sqlite3 wrappers', (f) => /better-sqlite3/.test(f.url)],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['V8 (program)', (f) => f.functionName === '(program)'],
  ['async hooks (AsyncLocalStorage)', (f) => /async_hooks/.test(f.url)],
  ['zod', (f) => /zod/.test(f.url)],
  ['Fastify', (f) => /fastify|find-my-way|avvio|fast-json-stringify/.test(f.url)],
  [
    'Node HTTP and sockets',
    (f) =>
      /^node:(_http|net|internal\/(http|stream|streams|net))/.test(f.url) ||
      (f.url === '' && /^(writev|writeUtf8String|writeBuffer|close|shutdown)$/.test(f.functionName)),
  ],
  ['Node (events, timers, ticks, other)', (f) => /^node:/.test(f.url)],
  ['our code', (f) => /main\.js/.test(f.url)],
]
const leafOf = (id) => {
  const frame = nodes.get(id).callFrame
  for (const [name, test] of leafKinds) if (test(frame)) return name
  return `other: ${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*node_modules\//, '')}`
}

// --functions=a,b,c: the time on the stack of each of our functions of those names (inclusive, so they overlap).
const inclusiveOf = (args.functions ?? '').split(',').filter(Boolean)
const byInclusive = new Map()
const byStage = new Map()
const byLeaf = new Map()
const byFunction = new Map()
let busy = 0
let idle = 0
for (let i = chosen.from; i <= chosen.to; i++) {
  const delta = profile.timeDeltas[i + 1] ?? 0
  const id = profile.samples[i]
  if (isIdle(i)) {
    idle += delta
    continue
  }
  busy += delta
  const add = (map, key) => map.set(key, (map.get(key) ?? 0) + delta)
  add(byStage, stageOf(id))
  add(byLeaf, leafOf(id))
  if (inclusiveOf.length > 0) {
    const onStack = new Set()
    for (let node = id; node !== undefined; node = parentOf.get(node)) {
      const { functionName, url } = nodes.get(node).callFrame
      if (/main\.js/.test(url) && inclusiveOf.includes(functionName)) onStack.add(functionName)
    }
    for (const name of onStack) add(byInclusive, name)
  }
  const frame = nodes.get(id).callFrame
  add(
    byFunction,
    `${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*node_modules\//, '').replace(/^file:.*\//, '')}:${frame.lineNumber + 1}`,
  )
}
const top = Number(args.top ?? 25)
const print = (title, map, limit = Infinity) => {
  console.log(`\n${title} (${unit}, share of busy)`)
  for (const [key, value] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit))
    console.log(
      `${amount(value)
        .toFixed(requests ? 1 : 1)
        .padStart(9)}  ${((100 * value) / busy).toFixed(1).padStart(5)} %  ${key}`,
    )
}
console.log(
  `\npart ${parts.indexOf(chosen) + 1}: ${(duration(chosen) / 1000).toFixed(0)} ms, busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms` +
    (requests ? `; ${requests} requests: ${(busy / requests).toFixed(1)} µs of CPU each` : ''),
)
print('by stage of the request', byStage)
print('by what ran at the leaf', byLeaf)
if (inclusiveOf.length > 0) print('our functions, inclusive', byInclusive)
print(`the ${top} functions with the most self time`, byFunction, top)

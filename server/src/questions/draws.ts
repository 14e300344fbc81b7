export interface DrawFilter {
  topic: string | null
  tags: string[]
  difficulty: string | null
  source: string | null
  type: string | null
  count: number
  /** Whole bank passages only; false: lone questions only (docs/decisions/117). */
  passages: boolean
}

export function drawOfItem(item: {
  draw_topic: string | null
  draw_tags: string | null
  draw_difficulty: string | null
  draw_source: string | null
  draw_type: string | null
  draw_count: number | null
  draw_passages?: number | null
}): DrawFilter {
  return {
    topic: item.draw_topic,
    tags: item.draw_tags ? (JSON.parse(item.draw_tags) as string[]) : [],
    difficulty: item.draw_difficulty,
    source: item.draw_source,
    type: item.draw_type,
    count: item.draw_count ?? 0,
    passages: item.draw_passages === 1,
  }
}

export type Fill =
  { ok: true; assignment: number[][] } | { ok: false; deficient: number[]; needed: number; available: number }

// A max flow over groups (docs/decisions/029 "In the code"); `preference` orders each group's questions.
export function fillDraws(
  draws: readonly { count: number; pool: readonly number[] }[],
  preference?: (a: number, b: number) => number,
): Fill {
  const signature = new Map<number, number[]>()
  draws.forEach((draw, index) => {
    for (const id of draw.pool) {
      const list = signature.get(id)
      if (list) {
        if (list.at(-1) !== index) list.push(index)
      } else signature.set(id, [index])
    }
  })
  const groups = new Map<string, { draws: number[]; ids: number[] }>()
  for (const [id, list] of signature) {
    const key = list.join(',')
    const group = groups.get(key)
    if (group) group.ids.push(id)
    else groups.set(key, { draws: list, ids: [id] })
  }
  const groupList = [...groups.values()]
  if (preference) for (const group of groupList) group.ids.sort(preference)
  const d = draws.length
  const g = groupList.length
  // Nodes: 0 source, 1..d draws, d+1..d+g groups, d+g+1 sink.
  const sink = d + g + 1
  const capacity = new Map<string, number>()
  const adjacency: number[][] = Array.from({ length: sink + 1 }, () => [])
  const addEdge = (from: number, to: number, cap: number) => {
    capacity.set(`${from}:${to}`, cap)
    capacity.set(`${to}:${from}`, capacity.get(`${to}:${from}`) ?? 0)
    adjacency[from]!.push(to)
    adjacency[to]!.push(from)
  }
  draws.forEach((draw, index) => addEdge(0, index + 1, draw.count))
  groupList.forEach((group, k) => {
    for (const index of group.draws) addEdge(index + 1, d + 1 + k, Number.MAX_SAFE_INTEGER)
    addEdge(d + 1 + k, sink, group.ids.length)
  })
  const residual = (from: number, to: number) => capacity.get(`${from}:${to}`) ?? 0
  const reachable = () => {
    const parent = new Array<number>(sink + 1).fill(-1)
    parent[0] = 0
    const queue = [0]
    while (queue.length > 0) {
      const node = queue.shift()!
      for (const next of adjacency[node]!) {
        if (parent[next] === -1 && residual(node, next) > 0) {
          parent[next] = node
          queue.push(next)
        }
      }
    }
    return parent
  }
  let flow = 0
  for (;;) {
    const parent = reachable()
    if (parent[sink] === -1) break
    let bottleneck = Number.MAX_SAFE_INTEGER
    for (let node = sink; node !== 0; node = parent[node]!)
      bottleneck = Math.min(bottleneck, residual(parent[node]!, node))
    for (let node = sink; node !== 0; node = parent[node]!) {
      const from = parent[node]!
      capacity.set(`${from}:${node}`, residual(from, node) - bottleneck)
      capacity.set(`${node}:${from}`, residual(node, from) + bottleneck)
    }
    flow += bottleneck
  }
  const needed = draws.reduce((sum, draw) => sum + draw.count, 0)
  if (flow < needed) {
    const parent = reachable()
    const deficient = draws.map((_, index) => index).filter((index) => parent[index + 1] !== -1)
    const available = new Set(deficient.flatMap((index) => draws[index]!.pool)).size
    return {
      ok: false,
      deficient,
      needed: deficient.reduce((sum, index) => sum + draws[index]!.count, 0),
      available,
    }
  }
  const taken = groupList.map(() => 0)
  const assignment = draws.map((_, index) => {
    const ids: number[] = []
    groupList.forEach((group, k) => {
      if (!group.draws.includes(index)) return
      const sent = residual(d + 1 + k, index + 1)
      ids.push(...group.ids.slice(taken[k], taken[k]! + sent))
      taken[k]! += sent
    })
    return preference ? ids.sort(preference) : ids
  })
  return { ok: true, assignment }
}

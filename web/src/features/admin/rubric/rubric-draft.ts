import type { Bilingual, Rubric, RubricInput } from '@quiz/contracts'

// The rubric editor's values (API.md "Written answers marked by rubric"): groups and items in the order shown, each
// with a key of its own for React and for naming a group before the server has given it an id.

export interface RubricGroupDraft {
  key: string
  id: number | null
  title: Bilingual
  exclusive: boolean
}

export interface RubricItemDraft {
  key: string
  id: number | null
  /** The key of the item's group, or '' for none. */
  group: string
  /** Signed points as typed ("2", "-1.5"). */
  points: string
  title: Bilingual
  explanation: Bilingual
}

export interface RubricDraft {
  scoring: 'positive' | 'negative'
  /** Blank: the defaults, 0 and the question's marks. */
  floor: string
  ceiling: string
  groups: RubricGroupDraft[]
  items: RubricItemDraft[]
  revision: number
}

let counter = 0
const newKey = (prefix: string) => `${prefix}${(counter += 1)}`
const text = (value?: Bilingual | null): Bilingual => ({ en: value?.en ?? '', ne: value?.ne ?? '' })

export const emptyRubric = (): RubricDraft => ({
  scoring: 'positive',
  floor: '',
  ceiling: '',
  groups: [],
  items: [],
  revision: 0,
})

export const newItem = (): RubricItemDraft => ({
  key: newKey('i'),
  id: null,
  group: '',
  points: '',
  title: text(),
  explanation: text(),
})

export const newGroup = (): RubricGroupDraft => ({ key: newKey('g'), id: null, title: text(), exclusive: true })

export function draftFromRubric(rubric: Rubric): RubricDraft {
  const groups = rubric.groups.map((group) => ({
    key: newKey('g'),
    id: group.id,
    title: text(group.title),
    exclusive: group.exclusive,
  }))
  const keyOfGroup = new Map(groups.map((group) => [group.id, group.key]))
  return {
    scoring: rubric.scoring,
    floor: rubric.floor === null ? '' : String(rubric.floor),
    ceiling: rubric.ceiling === null ? '' : String(rubric.ceiling),
    groups,
    items: rubric.items.map((item) => ({
      key: newKey('i'),
      id: item.id,
      group: item.group_id === null ? '' : (keyOfGroup.get(item.group_id) ?? ''),
      points: String(item.points),
      title: text(item.title),
      explanation: text(item.explanation),
    })),
    revision: rubric.revision,
  }
}

const number = (value: string): number | null => (value.trim() === '' ? null : Number(value))

/**
 * The request body: an item names a stored group by `group_id` and a new one by `group_index`, its place in
 * `groups` (docs/decisions/065); blank bounds are null (the defaults).
 */
export function toRubricInput(draft: RubricDraft, dryRun: boolean): RubricInput {
  const placeOf = new Map(draft.groups.map((group, index) => [group.key, { index, id: group.id }]))
  return {
    scoring: draft.scoring,
    floor: number(draft.floor),
    ceiling: number(draft.ceiling),
    groups: draft.groups.map((group) => ({
      ...(group.id !== null && { id: group.id }),
      title: group.title,
      exclusive: group.exclusive,
    })),
    items: draft.items.map((item) => {
      const group = placeOf.get(item.group)
      return {
        ...(item.id !== null && { id: item.id }),
        ...(group && (group.id !== null ? { group_id: group.id } : { group_index: group.index })),
        points: number(item.points) as number,
        title: item.title,
        explanation: item.explanation.en.trim() || item.explanation.ne.trim() ? item.explanation : null,
      }
    }),
    revision: draft.revision,
    dry_run: dryRun,
  }
}

/** The list with the entry at `from` moved to `to` (a drop, or a keyboard step). */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list]
  const next = [...list]
  const [entry] = next.splice(from, 1)
  next.splice(to, 0, entry!)
  return next
}

/** Whether a group is deleted: its items lose it. */
export function withoutGroup(draft: RubricDraft, key: string): RubricDraft {
  return {
    ...draft,
    groups: draft.groups.filter((group) => group.key !== key),
    items: draft.items.map((item) => (item.group === key ? { ...item, group: '' } : item)),
  }
}

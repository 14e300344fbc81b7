import { fromHundredths, toHundredths, type Rubric, type RubricInputSchema } from '@quiz/contracts'
import type { z } from 'zod'
import type { RubricGroupTable, RubricItemTable, RubricTable } from '../db/schema'
import type { Selectable } from 'kysely'
import type { ScoringRubric } from './written-score'

// A rubric as stored, as read, and as a PUT would leave it: pure, so a dry run and a commit plan the same change.

export type RubricInput = z.output<typeof RubricInputSchema>

export interface StoredRubric {
  row: Selectable<RubricTable> | undefined
  groups: Selectable<RubricGroupTable>[]
  items: Selectable<RubricItemTable>[]
}

export const revisionOf = (stored: StoredRubric) => stored.row?.revision ?? 0

export function toRubricDto(questionId: number, marks: number, stored: StoredRubric): Rubric {
  // Stored null is the default: API.md gives the number it stands for, never null.
  return {
    question_id: questionId,
    marks: fromHundredths(marks),
    scoring: stored.row?.scoring ?? 'positive',
    floor: fromHundredths(stored.row?.floor ?? 0),
    ceiling: fromHundredths(stored.row?.ceiling ?? marks),
    groups: stored.groups.map((group) => ({
      id: group.id,
      title: { en: group.title_en, ne: group.title_ne },
      exclusive: group.exclusive === 1,
    })),
    items: stored.items.map((item) => ({
      id: item.id,
      group_id: item.group_id,
      points: fromHundredths(item.points),
      title: { en: item.title_en, ne: item.title_ne },
      explanation: item.explanation_en === null ? null : { en: item.explanation_en, ne: item.explanation_ne ?? '' },
    })),
    revision: revisionOf(stored),
  }
}

/** Every item with its points and group, every group with whether it is exclusive: what a score needs. */
export function scoringRubricOf(stored: StoredRubric): ScoringRubric {
  return {
    scoring: stored.row?.scoring ?? 'positive',
    floor: stored.row?.floor ?? null,
    ceiling: stored.row?.ceiling ?? null,
    items: new Map(stored.items.map((item) => [item.id, { points: item.points, group_id: item.group_id }])),
    groups: new Map(stored.groups.map((group) => [group.id, { exclusive: group.exclusive === 1 }])),
  }
}

/**
 * The PUT's rubric in the stored shape; new groups and items get ids below 0 until they are written. A bound equal to
 * its default is stored as the default (null), so a rubric read and sent back unchanged is unchanged, and a ceiling
 * left at the marks follows them.
 */
export function plannedRubric(questionId: number, input: RubricInput, marks: number): StoredRubric {
  const groupIds = input.groups.map((group, index) => group.id ?? -(index + 1))
  return {
    row: {
      question_id: questionId,
      scoring: input.scoring,
      floor: input.floor === null || input.floor === 0 ? null : toHundredths(input.floor),
      ceiling: input.ceiling === null || toHundredths(input.ceiling) === marks ? null : toHundredths(input.ceiling),
      revision: 0,
      updated_at: 0,
    },
    groups: input.groups.map((group, index) => ({
      id: groupIds[index]!,
      question_id: questionId,
      position: index + 1,
      title_en: group.title.en,
      title_ne: group.title.ne,
      exclusive: group.exclusive ? 1 : 0,
    })),
    items: input.items.map((item, index) => ({
      id: item.id ?? -(index + 1),
      question_id: questionId,
      group_id:
        item.group_index !== null && item.group_index !== undefined
          ? groupIds[item.group_index]!
          : (item.group_id ?? null),
      position: index + 1,
      points: toHundredths(item.points),
      title_en: item.title.en,
      title_ne: item.title.ne,
      explanation_en: item.explanation?.en ?? null,
      explanation_ne: item.explanation?.ne ?? null,
    })),
  }
}

export interface RubricChange {
  /** Nothing differs, texts and order included: the revision stays. */
  same: boolean
  /** Scoring or a bound changed: every marked answer may score differently. */
  scoresAll: boolean
  /** Existing items whose points or group changed, or whose group's exclusivity changed. */
  changedItems: number[]
  deletedItems: number[]
  deletedGroups: number[]
}

export function compareRubrics(before: StoredRubric, after: StoredRubric): RubricChange {
  const scoring = (rubric: StoredRubric) => [
    rubric.row?.scoring ?? 'positive',
    rubric.row?.floor ?? null,
    rubric.row?.ceiling ?? null,
  ]
  const scoresAll = JSON.stringify(scoring(before)) !== JSON.stringify(scoring(after))
  const afterItems = new Map(after.items.map((item) => [item.id, item]))
  const afterGroups = new Map(after.groups.map((group) => [group.id, group]))
  const exclusiveOf = (rubric: Map<number, { exclusive: number }>, id: number | null) =>
    id === null ? 0 : (rubric.get(id)?.exclusive ?? 0)
  const beforeGroups = new Map(before.groups.map((group) => [group.id, group]))
  const changedItems: number[] = []
  const deletedItems: number[] = []
  for (const item of before.items) {
    const next = afterItems.get(item.id)
    if (!next) deletedItems.push(item.id)
    else if (
      next.points !== item.points ||
      next.group_id !== item.group_id ||
      exclusiveOf(beforeGroups, item.group_id) !== exclusiveOf(afterGroups, next.group_id)
    )
      changedItems.push(item.id)
  }
  const texts = (rubric: StoredRubric) =>
    JSON.stringify([
      rubric.groups.map(({ id, title_en, title_ne, exclusive }) => [id, title_en, title_ne, exclusive]),
      rubric.items.map(({ id, group_id, points, title_en, title_ne, explanation_en, explanation_ne }) => [
        id,
        group_id,
        points,
        title_en,
        title_ne,
        explanation_en,
        explanation_ne,
      ]),
    ])
  return {
    same: !scoresAll && texts(before) === texts(after),
    scoresAll,
    changedItems,
    deletedItems,
    deletedGroups: before.groups.filter((group) => !afterGroups.has(group.id)).map((group) => group.id),
  }
}

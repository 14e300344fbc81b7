import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import type { AttemptSection } from '../questions/sections'
import { needsSightRevisions } from '../questions/needs-sight.repository'

// API.md "Blind learners", as the Public Service Commission adapts a paper for a blind candidate (decision 114): a
// screen reader's user gets the paper without the questions that need sight, and each section keeps its full marks,
// shared among the questions left. Marks are hundredths (decision 029), so the rescaled marks are exact to 2
// decimals: a section's new full marks may differ from the old by under half a hundredth a question left.

export interface AdaptedPaper {
  bySection: number[][]
  sections: AttemptSection[]
  leftOut: number
}

const rescaled = (hundredths: number, full: number, left: number) => Math.round((hundredths * full) / left)

/**
 * `bySection`: the revisions drawn for each section, in order; `sections` the paper's. Null when nothing needs sight
 * (the paper as it is). A section whose every question needs sight is left with none (its marks leave the paper).
 */
export async function adaptForScreenReader(
  db: Kysely<DB>,
  bySection: readonly (readonly number[])[],
  sections: readonly AttemptSection[],
): Promise<AdaptedPaper | null> {
  const dropped = await needsSightRevisions(db, bySection.flat())
  if (dropped.size === 0) return null
  const kept = bySection.map((ids) => ids.filter((id) => !dropped.has(id)))
  return {
    bySection: kept,
    sections: sections.map((section, index) => {
      const left = kept[index]!.length
      const full = bySection[index]!.length
      if (left === full || left === 0) return { ...section, count: left }
      return {
        ...section,
        count: left,
        marks_correct: rescaled(section.marks_correct, full, left),
        marks_wrong: rescaled(section.marks_wrong, full, left),
      }
    }),
    leftOut: bySection.flat().length - kept.flat().length,
  }
}

import { verifySheetCode } from '../sheet/sheet-code'
import {
  readLocatedBookletPage,
  refusePage,
  type BookletPageResult,
  type ReadBookletOptions,
} from './read-booklet-page'
import { openPage, readLocatedSheet, type ReadSheetOptions, type SheetReadResult } from './read-sheet'

/** What a photo sent to the "Scan sheets" place is, by its code, and what reading it as that said. */
export type PageOrSheetResult = { kind: 'page'; result: BookletPageResult } | { kind: 'sheet'; result: SheetReadResult }

export type ReadPageOrSheetOptions = ReadBookletOptions & Pick<ReadSheetOptions, 'layoutFor'>

/** A booklet page or an answer sheet, located once and told apart by its code (docs/decisions/075). */
export async function readPageOrSheet(photo: Buffer, options: ReadPageOrSheetOptions): Promise<PageOrSheetResult> {
  const opened = await openPage(photo)
  if (typeof opened === 'string') return { kind: 'page', result: refusePage(opened) }
  const { image, located } = opened
  const sheet = verifySheetCode(located.payload, options.secret, options.sittingId)
  if (sheet.ok) return { kind: 'sheet', result: readLocatedSheet(image, located, sheet.code, options.layoutFor) }
  return { kind: 'page', result: readLocatedBookletPage(image, located, options) }
}

import { buildRow, type RowContext } from '../src/imports/rows'
import type { Draft } from '../src/imports/readers/draft'

/** A reader's drafts built into rows as an import of `format` builds them (no legacy font, no default tags). */
export const rowsOf = (drafts: Draft[], format: RowContext['format']) =>
  Promise.all(
    drafts.map((draft) =>
      // Whether text is legacy-font text is decided elsewhere (legacy-font/); these rows hold none.
      buildRow(draft, { format, legacyFont: 'none', defaults: { tags: [] }, pictureKey: 'test' }),
    ),
  )

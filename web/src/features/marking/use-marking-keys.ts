import { useEffect, useEffectEvent } from 'react'
import type { StampCode } from '../../components/annotations/annotation-doc'
import type { Tool } from './page-marker'

/** Stamps by key: T X Q G, and ? for the question mark. */
export const STAMP_KEYS: Record<string, StampCode> = {
  t: 'tick',
  x: 'cross',
  q: 'question',
  '?': 'question',
  g: 'good',
}
/** Tools by key: the pen and the box then draw with the mouse, a finger or a stylus; Escape goes back to pointing. */
const TOOL_KEYS: Record<string, Tool> = { p: 'pen', b: 'box', n: 'note', escape: 'point' }

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['TEXTAREA', 'INPUT', 'SELECT'].includes(target.tagName))

/** Enter saves from anywhere but a text box and a control of its own (a link, a button not marked as a tool). */
const enterSaves = (target: EventTarget | null) =>
  !isTyping(target) &&
  !(
    target instanceof HTMLElement &&
    (target.tagName === 'A' || target.tagName === 'BUTTON') &&
    !target.dataset.enterSaves
  )

export interface MarkingKeyActions {
  /** Rubric item ids in the rubric's order: keys 1–9 toggle the first nine. */
  itemIds: readonly number[]
  save: () => void
  toggle: (itemId: number) => void
  stamp: (code: StampCode) => void
  undo: () => void
  pickTool: (tool: Tool) => void
}

/**
 * The marking screen's keys on the whole window: 1–9 items, T X Q G stamps, Z undoes, P B N tools and Escape,
 * Enter (or Ctrl+Enter from a text box) saves. The listener, added once, always sees the latest render's actions.
 */
export function useMarkingKeys(actions: MarkingKeyActions) {
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.altKey || event.metaKey) return
    if (event.key === 'Enter' && event.ctrlKey) {
      event.preventDefault()
      return actions.save()
    }
    if (event.key === 'Enter' && enterSaves(event.target)) {
      event.preventDefault()
      return actions.save()
    }
    if (isTyping(event.target) || event.ctrlKey) return
    if (/^[1-9]$/.test(event.key)) {
      const itemId = actions.itemIds[Number(event.key) - 1]
      if (itemId !== undefined) {
        event.preventDefault()
        actions.toggle(itemId)
      }
      return
    }
    const stamp = STAMP_KEYS[event.key.toLowerCase()]
    if (stamp) {
      event.preventDefault()
      actions.stamp(stamp)
      return
    }
    if (event.key.toLowerCase() === 'z') {
      event.preventDefault()
      actions.undo()
      return
    }
    const picked = TOOL_KEYS[event.key.toLowerCase()]
    if (picked) {
      event.preventDefault()
      actions.pickTool(picked)
    }
  })
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event)
    window.addEventListener('keydown', listener)
    return () => window.removeEventListener('keydown', listener)
  }, [])
}

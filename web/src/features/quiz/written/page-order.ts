import type { WrittenPage } from '@quiz/contracts'
import type { StoredPage } from './written-stored'

// A question's pages as the device and the server each hold them: merging the server's copy in, and the order
// this device still has to send.

/**
 * A question's pages after the server's copy is folded in (written-queue.ts's `mergeServer` says the rules): a page
 * sent from here that the server no longer has goes, a page the server has that this device lacks comes in, a page
 * `deleting` stays out; this device's order while it has one to send, else the server's with photos still to send
 * after them in the order they were added here.
 */
export function mergedPages(
  local: readonly StoredPage[],
  serverPages: readonly WrittenPage[],
  deleting: ReadonlySet<number>,
  serverOrder: readonly number[],
): StoredPage[] {
  const onServer = new Map(serverPages.map((page) => [page.id, page]))
  const localIds = new Set(local.flatMap((entry) => (entry.page ? [entry.page.id] : [])))
  const incoming = serverPages
    .filter((page) => !localIds.has(page.id) && !deleting.has(page.id))
    .map((page): StoredPage => ({ key: `s${page.id}`, page, refusal: null }))
  // The fresh page, signed anew: a kept address expires (docs/decisions/065).
  const refreshed = (entry: StoredPage): StoredPage[] => {
    if (!entry.page) return [entry]
    const page = onServer.get(entry.page.id)
    return page ? [{ ...entry, page }] : []
  }
  if (hasOrderToSend(local, serverOrder)) return [...local.flatMap(refreshed), ...incoming]
  const byId = new Map(local.flatMap((entry) => (entry.page ? [[entry.page.id, entry] as const] : [])))
  const sent = serverPages
    .filter((page) => !deleting.has(page.id))
    .map((page) => ({ ...(byId.get(page.id) ?? { key: `s${page.id}`, refusal: null }), page }))
  return [...sent, ...local.filter((entry) => !entry.page)]
}

/** This device placed its pages in an order the server has not been sent: moved, or a photo before a sent one. */
export function hasOrderToSend(local: readonly StoredPage[], serverOrder: readonly number[]) {
  const sentIds = local.flatMap((entry) => (entry.page ? [entry.page.id] : []))
  const known = serverOrder.filter((id) => sentIds.includes(id))
  const firstUnsent = local.findIndex((entry) => !entry.page)
  const photoBeforeSent = firstUnsent >= 0 && local.slice(firstUnsent).some((entry) => entry.page !== null)
  return photoBeforeSent || known.length !== sentIds.length || known.some((id, index) => id !== sentIds[index])
}

/** The order to send for a question once all its photos are on the server and it differs from the server's. */
export function orderToSend(list: readonly StoredPage[], serverOrder: readonly number[]): number[] | null {
  if (list.some((entry) => !entry.page && !entry.refusal)) return null
  const order = list.flatMap((entry) => (entry.page ? [entry.page.id] : []))
  if (order.length !== serverOrder.length || order.every((id, index) => id === serverOrder[index])) return null
  return order
}

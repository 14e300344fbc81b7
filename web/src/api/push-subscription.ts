// Web push for this browser (API.md "Notifications"): asked for only when a learner registers for a live mock
// (WEB.md), never on first load. The offline worker shows the pushes (public/push-worker.js).
import type { PushKey, PushSubscriptionBody } from '@quiz/contracts'
import { api } from './client'

export type PushPermission = NotificationPermission | 'unsupported'

const pushSupported = () =>
  typeof window !== 'undefined' && 'Notification' in window && 'serviceWorker' in navigator && 'PushManager' in window

/**
 * The browser's permission, asked if not yet decided. Call it in the click's handler before anything is awaited:
 * browsers show the prompt only within a user's gesture.
 */
export function askPushPermission(): Promise<PushPermission> {
  if (!pushSupported()) return Promise.resolve('unsupported')
  if (Notification.permission !== 'default') return Promise.resolve(Notification.permission)
  return Notification.requestPermission()
}

/** The VAPID key as `applicationServerKey` wants it: base64url to bytes. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=')
  const binary = atob(base64)
  const bytes = new Uint8Array(new ArrayBuffer(binary.length))
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index)
  return bytes
}

/**
 * Subscribes this browser (or re-sends its existing subscription, which the server keeps once) once permission is
 * granted. Returns whether pushes will arrive; a failure never blocks what asked for it (the bell still has the
 * notification).
 */
export async function subscribeToPush(permission: Promise<PushPermission>): Promise<boolean> {
  try {
    if ((await permission) !== 'granted') return false
    // The worker exists only in the build (main.tsx); without one there is nothing to receive pushes.
    const registration = await navigator.serviceWorker.getRegistration()
    if (!registration) return false
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes((await api.get<PushKey>('/push/key/', { auth: false })).public_key),
      }))
    await api.post<void>('/push/subscriptions/', subscription.toJSON() as PushSubscriptionBody)
    return true
  } catch {
    return false
  }
}

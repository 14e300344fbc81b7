import type { ChildProcess } from 'node:child_process'
import type { Browser } from 'playwright-core'

export function freePort(): Promise<number>
export function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void>
export function launchBrowser(extraArgs?: string[]): Promise<Browser>

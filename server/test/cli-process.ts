import { spawnServerProgram } from './server-process'

export interface CliResult {
  status: number | null
  stdout: string
  stderr: string
}

/**
 * Runs a command-line tool of src/cli as `node` would (through tsx), in its own process, without blocking this
 * one: a server in the test process keeps answering while the tool runs.
 */
export function runCli(tool: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawnServerProgram(`cli/${tool}`, args, env, { timeout: 60_000 })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (status) => resolve({ status, stdout, stderr }))
  })
}

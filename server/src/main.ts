import 'dotenv/config'
import { ConfigError, loadConfig } from './config'

// The settings first: a refused configuration says so before 2 s (or 20 s busy) of loading; serve.ts is its own bundle.
async function main() {
  const config = loadConfig()
  // A URL, not a literal: esbuild would bundle a literal into main.js.
  const serveModule = new URL(import.meta.url.endsWith('.ts') ? './serve.ts' : './serve.js', import.meta.url)
  const { serve } = (await import(serveModule.href)) as typeof import('./serve')
  await serve(config)
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message)
  } else {
    console.error(error)
  }
  process.exit(1)
})

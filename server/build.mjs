// Bundles the server's own code (and @quiz/contracts, which ships as TypeScript source) into dist/;
// every other package stays external and is loaded from node_modules at run time.
import { build } from 'esbuild'

const entryPoints = {
  main: 'src/main.ts',
  // Loaded by main.js once the settings are read (src/main.ts).
  serve: 'src/serve.ts',
  // The import worker (src/imports/worker/pool.ts starts dist/imports/import-worker.js beside dist/main.js).
  'imports/import-worker': 'src/imports/worker/import-worker.ts',
  // The sheet reader's worker (src/sittings/sheet-reads.ts starts dist/sittings/sheet-worker.js).
  'sittings/sheet-worker': 'src/sittings/sheet-worker.ts',
  'cli/migrate': 'src/cli/migrate.ts',
  'cli/create-admin': 'src/cli/create-admin.ts',
  'cli/create-institute': 'src/cli/create-institute.ts',
  'cli/create-learners': 'src/cli/create-learners.ts',
  'cli/grant-paid-access': 'src/cli/grant-paid-access.ts',
  'cli/backup': 'src/cli/backup.ts',
  'cli/restore': 'src/cli/restore.ts',
  'cli/files-migrate': 'src/cli/files-migrate.ts',
}

await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [
    {
      name: 'external-packages-except-contracts',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@quiz/') ? undefined : { path: args.path, external: true },
        )
      },
    },
  ],
})

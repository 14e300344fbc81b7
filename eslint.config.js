// ESLint for the whole repository. The layer map below is docs/decisions/012-lint-format-and-import-boundaries.md.
import js from '@eslint/js'
import importPlugin from 'eslint-plugin-import'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig, globalIgnores } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { serverZones, webZones } from './eslint/boundaries.js'

// Tests may reach across layers to wire an app or read a fixture; the boundaries bind production code.
const testFiles = ['**/*.test.ts', '**/*.test.tsx']

/**
 * import/no-restricted-paths over one workspace. Imports are written without extensions and no workspace maps paths
 * in its tsconfig, so Node's resolution with the TypeScript extensions finds the file an import reaches, as tsc and
 * Vite do (docs/decisions/012).
 */
function boundaries(files, zones) {
  return {
    files: [files],
    ignores: testFiles,
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } } },
    rules: { 'import/no-restricted-paths': ['error', { zones }] },
  }
}

// Kysely's query builders and `sql` templates, refused outside repositories (below).
const queryBuilders =
  'selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|with|withRecursive'
const sqlMessage =
  'SQL lives in a *.repository.ts (or db/): move the statement there as a function named for what it does.'
const sqlOutsideRepositories = [
  `CallExpression[callee.property.name=/^(${queryBuilders})$/]`,
  `CallExpression[callee.name=/^(${queryBuilders})$/]`,
  "TaggedTemplateExpression[tag.name='sql']",
  "TaggedTemplateExpression[tag.callee.name='sql']",
  "ImportDeclaration[source.value='kysely'][importKind!='type'] ImportSpecifier[imported.name='sql'][importKind!='type']",
].map((selector) => ({ selector, message: sqlMessage }))

export default defineConfig(
  globalIgnores(['**/node_modules', '**/dist', '**/.prerender', 'data', 'coverage', 'e2e/.artifacts']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_` marks a parameter kept for a signature (a Fastify hook, an Array.from callback).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    extends: [reactHooks.configs.flat['recommended-latest'], jsxA11y.flatConfigs.recommended],
  },
  {
    // better-sqlite3 13 segfaults on Node 20 and 12 aborts on Node 24: one module picks the driver per line
    // (docs/decisions/010-sqlite-driver-per-node-line.md), so every other file opens SQLite through it.
    files: ['server/**/*.ts'],
    ignores: ['server/src/db/sqlite-driver.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['better-sqlite3', 'better-sqlite3-node20'].map((name) => ({
            name,
            message: 'Open SQLite through server/src/db/sqlite-driver.ts, which picks the driver for this Node line.',
            allowTypeImports: true,
          })),
        },
      ],
    },
  },
  {
    // SQL is written in repositories only (*.repository.ts, db/ and its migrations): a service or route names what
    // it reads or writes, and a reader finds every statement on a table in one place.
    files: ['server/src/**/*.ts'],
    ignores: [...testFiles, 'server/src/**/*.repository.ts', 'server/src/db/**'],
    rules: {
      'no-restricted-syntax': ['error', ...sqlOutsideRepositories],
    },
  },
  {
    // One composition root (docs/decisions/051-one-composition-root.md): a route file only declares routes. Its own
    // block repeats the SQL selectors: a later block's options replace an earlier one's for the same rule.
    files: ['server/src/**/*.routes.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.type="Identifier"][callee.name=/^create[A-Z]/]',
          message:
            'A route plugin builds no service, limiter or cache: build it once in server/src/services.ts and receive it as a plugin option (docs/decisions/051), so every route shares one and tests replace it through buildApp.',
        },
        ...sqlOutsideRepositories,
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '\\.repository$',
              message:
                'A route plugin reads no repository: call a method of the service it receives, built in server/src/services.ts (docs/decisions/051), so the rules and transactions around a read or write stay in the service.',
            },
          ],
        },
      ],
    },
  },
  boundaries('server/src/**/*.ts', serverZones()),
  boundaries('web/src/**/*.{ts,tsx}', webZones()),
)

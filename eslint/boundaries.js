// Import boundaries as import/no-restricted-paths zones. Feature folders are read from disk, so a new feature is
// bound by the same rules without editing this file. The map is docs/decisions/012-lint-format-and-import-boundaries.md.
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const foldersIn = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)

/** Every ordered pair (a, b) of distinct items. */
const pairs = (items) => items.flatMap((a) => items.filter((b) => b !== a).map((b) => [a, b]))

/** server/src: shared infrastructure, the composition root, and features (every other folder). */
export const serverLayers = {
  /** Shared folders in layers, lowest first, held as the features are (layerZones): none imports up or aside. */
  shared: [
    ['lib', 'svg'],
    ['config.ts'],
    // The file store (docs/decisions/105): below db/, whose page images name their files in it.
    ['files'],
    ['db', 'sms'],
    ['http', 'audit'],
    ['accounts', 'maths', 'pictures'],
    ['questions'],
  ],
  composition: ['app.ts', 'main.ts', 'serve.ts', 'cluster.ts', 'context.ts', 'services.ts', 'cli'],
  /**
   * Features in layers, lowest first: a feature imports features of lower layers only (through their services),
   * never one of its own layer or above, so no import runs back up and no folders import each other in a circle.
   * A feature folder not listed here is in a layer above them all, alone: nothing listed imports it, and it
   * imports no other unlisted feature until it is given its place.
   */
  features: [
    ['outcomes', 'institutes'],
    ['attempts', 'auth', 'health', 'metrics', 'notifications', 'plans', 'types'],
    ['challenges', 'institutions', 'live', 'payments', 'practice', 'users', 'written'],
    ['admin', 'quizzes', 'results', 'sittings'],
    ['imports'],
  ],
}

/**
 * Zones that keep folders in layers: each folder of a layer imports nothing of its own layer (but itself) nor of
 * any layer above. `message` names the folder and the folders it may not import.
 */
function layerZones(layers, at, message, targetOf = at) {
  return layers.flatMap((layer, index) => {
    const aboveAndBeside = layers.slice(index + 1).flat()
    return layer.flatMap((folder) => {
      const forbidden = [...layer.filter((other) => other !== folder), ...aboveAndBeside]
      return forbidden.length === 0
        ? []
        : [{ target: targetOf(folder), from: forbidden.map(at), message: message(folder) }]
    })
  })
}

export function serverZones(src = path.join(root, 'server/src')) {
  const at = (name) => path.join(src, name)
  const compositionFolders = serverLayers.composition.filter((name) => !name.includes('.'))
  const features = foldersIn(src).filter(
    (name) => !serverLayers.shared.flat().includes(name) && !compositionFolders.includes(name),
  )
  const unlisted = features.filter((name) => !serverLayers.features.flat().includes(name))
  // The one exception: which attempt counts is one SQL condition with one home, used in other features' queries (062).
  const countedAttempt = `${at('outcomes')}/**/counted-attempt.repository.ts` // a glob, as the zones' `except` must be
  return [
    {
      target: serverLayers.shared.flat().map(at),
      from: [...features, ...serverLayers.composition].map(at),
      message: 'Shared server code (http/, db/, lib/, ...) imports no feature: move the code it needs down a layer.',
    },
    {
      target: features.map(at),
      from: ['app.ts', 'main.ts', 'services.ts', 'cli'].map(at),
      message: 'A feature never imports the composition root; it receives what it needs through AppContext.',
    },
    ...pairs(features).map(([feature, other]) => ({
      target: at(feature),
      from: [`${at(other)}/**`],
      except: [`${at(other)}/*.service.ts`, ...(other === 'outcomes' ? [countedAttempt] : [])],
      message: `A feature imports another feature only through its service (${other}/*.service.ts).`,
    })),
    {
      target: features
        .filter((feature) => feature !== 'outcomes')
        .map((feature) => `${at(feature)}/**/!(*.repository).ts`),
      from: [countedAttempt],
      message: 'outcomes/counted-attempt.repository.ts is a piece of SQL: only a repository imports it.',
    },
    ...layerZones(
      serverLayers.shared,
      at,
      (folder) =>
        `${folder} imports only shared code of the layers below its own (serverLayers.shared in eslint/boundaries.js): ` +
        'no import runs back up, and no two folders import each other.',
      // db/migrations upgrade stored data with today's helpers (maths/, questions/), above every layer: only db/'s
      // own files are held to db's place.
      (folder) => (folder === 'db' ? `${at('db')}/*.ts` : at(folder)),
    ),
    ...layerZones(
      // Unlisted features make the top layer, whose folders import none of each other.
      [...serverLayers.features, unlisted],
      at,
      (feature) =>
        `${feature}/ imports only features of the layers below its own (serverLayers.features in eslint/boundaries.js): ` +
        'no import runs back up, and no two folders import each other.',
    ),
    {
      target: `${src}/**/*.repository.ts`,
      from: [`${src}/**/*.service.ts`, `${src}/**/*.routes.ts`],
      message: 'routes -> service -> repository: a repository imports no service or route.',
    },
    {
      target: `${src}/**/*.service.ts`,
      from: [`${src}/**/*.routes.ts`],
      message: 'routes -> service -> repository: a service imports no route.',
    },
  ]
}

/** web/src: shared code, features/<name>/, and app/ which composes them (only main.tsx imports app/). */
export const webLayers = {
  /**
   * Shared folders in layers, lowest first: each imports only folders of the layers below its own (as the server's
   * features), so no import runs back up and no two shared folders import each other.
   */
  shared: [['config', 'lib'], ['i18n'], ['session'], ['api'], ['components'], ['test']],
}

export function webZones(src = path.join(root, 'web/src')) {
  const at = (name) => path.join(src, name)
  const features = foldersIn(at('features'))
  return [
    {
      target: webLayers.shared.flat().map(at),
      from: [at('features'), at('app')],
      message: 'Shared web code imports no feature and not app/: lift the piece it needs into a shared folder.',
    },
    {
      target: at('features'),
      from: at('app'),
      message: 'Nothing imports app/ but main.tsx: app/ composes features, features do not reach back.',
    },
    ...pairs(features).map(([feature, other]) => ({
      target: at(`features/${feature}`),
      from: at(`features/${other}`),
      message:
        'A feature never imports another feature: lift the shared piece into components/ or lib/, or compose in app/.',
    })),
    ...layerZones(
      webLayers.shared,
      at,
      (folder) =>
        `${folder}/ imports only shared folders of the layers below its own (webLayers.shared in eslint/boundaries.js): ` +
        'no import runs back up, and no two folders import each other.',
    ),
  ]
}

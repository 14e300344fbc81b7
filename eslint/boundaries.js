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
  shared: ['http', 'db', 'lib', 'accounts', 'questions', 'svg', 'maths', 'sms', 'audit', 'config.ts'],
  composition: ['app.ts', 'main.ts', 'cluster.ts', 'context.ts', 'services.ts', 'cli'],
  /** Features others build on, and the features that build on them: the lower one never imports the upper ones. */
  below: { attempts: ['quizzes', 'results', 'practice'] },
}

export function serverZones(src = path.join(root, 'server/src')) {
  const at = (name) => path.join(src, name)
  const compositionFolders = serverLayers.composition.filter((name) => !name.includes('.'))
  const features = foldersIn(src).filter(
    (name) => !serverLayers.shared.includes(name) && !compositionFolders.includes(name),
  )
  return [
    {
      target: serverLayers.shared.map(at),
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
      except: [`${at(other)}/*.service.ts`],
      message: `A feature imports another feature only through its service (${other}/*.service.ts).`,
    })),
    ...Object.entries(serverLayers.below).map(([lower, upper]) => ({
      target: at(lower),
      from: upper.map(at),
      message: `${lower}/ is below ${upper.join(', ')}: they import its services, it imports none of theirs.`,
    })),
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
  shared: ['api', 'components', 'config', 'i18n', 'lib', 'session', 'test'],
}

export function webZones(src = path.join(root, 'web/src')) {
  const at = (name) => path.join(src, name)
  const features = foldersIn(at('features'))
  return [
    {
      target: webLayers.shared.map(at),
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
  ]
}

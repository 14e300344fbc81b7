import { lazyResolver } from '../../components/ui/form/lazy-resolver'

// One chunk holds zod and every auth schema: the first form check loads it, and later forms find it loaded.
const schemas = () => import('./auth-schemas')

export const codeForm = lazyResolver(() => schemas().then((loaded) => loaded.codeResolver))
export const registerForm = lazyResolver(() => schemas().then((loaded) => loaded.registerResolver))
export const resetForm = lazyResolver(() => schemas().then((loaded) => loaded.resetResolver))

// A form is checked within seconds of an auth screen opening: the download starts with the screen's own code.
void schemas()

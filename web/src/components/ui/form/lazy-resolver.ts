import type { FieldValues, Resolver } from 'react-hook-form'

/**
 * A form resolver loaded on first use. zod and the contracts' schemas are not needed to draw a form, so the
 * first screen (login) ships without them; `preload` starts the download as soon as the form is on screen.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>) {
  let loading: Promise<Resolver<T>> | undefined
  const preload = () => (loading ??= load())
  const resolver: Resolver<T> = async (values, context, options) => (await preload())(values, context, options)
  return { resolver, preload }
}

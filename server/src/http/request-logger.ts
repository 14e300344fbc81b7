import type { FastifyBaseLogger } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger'

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const
type Level = (typeof LEVELS)[number]
const noop = () => {}

/**
 * Fastify's per-request logger, made only when something logs at a level that is on. pino's `child` writes its
 * bindings (the request id) through the redaction of app.ts on every request: a few µs of each hot request for a
 * logger that, at the usual levels, never writes a line (docs/decisions/076). What a request logs is unchanged.
 */
export function lazyChildLoggers(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  let child: FastifyBaseLogger | undefined
  const made = () => (child ??= logger.child(bindings, options))
  const pino = logger as FastifyBaseLogger & { levels?: { values: Record<string, number> }; levelVal?: number }
  const values = pino.levels?.values
  // 'silent' has no value of its own in pino: nothing is on.
  const threshold = options.level === undefined ? pino.levelVal : (values?.[options.level] ?? Infinity)
  // Without pino's level values (another logger), every level counts as on: the child is made at the first call.
  const isOn = (level: Level) => values === undefined || threshold === undefined || values[level]! >= threshold
  const forward = (level: Level) => {
    const on = isOn(level)
    return (...args: unknown[]) => {
      if (child || on) (made()[level] as (...rest: unknown[]) => void)(...args)
    }
  }
  const lazy = {
    get level() {
      return child?.level ?? options.level ?? logger.level
    },
    set level(level: string) {
      made().level = level
    },
    silent: noop,
    child: (more: Bindings, moreOptions?: ChildLoggerOptions) => made().child(more, moreOptions),
  } as unknown as FastifyBaseLogger
  for (const level of LEVELS) (lazy as unknown as Record<Level, unknown>)[level] = forward(level)
  return lazy
}

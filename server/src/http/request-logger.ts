import type { FastifyBaseLogger } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type PinoLike = FastifyBaseLogger & { levels?: { values: Record<string, number> }; levelVal?: number }

/** Fastify's per-request logger, made only when a level is on (decision 076), methods on a prototype (decision 083). */
export function lazyChildLoggers(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger as PinoLike, bindings, options) as unknown as FastifyBaseLogger
}

class LazyChildLogger {
  private made: FastifyBaseLogger | undefined
  private readonly threshold: number | undefined

  constructor(
    private readonly parent: PinoLike,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {
    const values = parent.levels?.values
    // 'silent' has no value of its own in pino: nothing is on.
    this.threshold =
      values === undefined
        ? undefined
        : options.level === undefined
          ? parent.levelVal
          : (values[options.level] ?? Number.POSITIVE_INFINITY)
  }

  get level() {
    return this.made?.level ?? this.options.level ?? this.parent.level
  }

  set level(level: string) {
    this.logger().level = level
  }

  fatal(...args: unknown[]) {
    this.write('fatal', args)
  }
  error(...args: unknown[]) {
    this.write('error', args)
  }
  warn(...args: unknown[]) {
    this.write('warn', args)
  }
  info(...args: unknown[]) {
    this.write('info', args)
  }
  debug(...args: unknown[]) {
    this.write('debug', args)
  }
  trace(...args: unknown[]) {
    this.write('trace', args)
  }
  silent() {}

  child(more: Bindings, moreOptions?: ChildLoggerOptions) {
    return this.logger().child(more, moreOptions)
  }

  private logger() {
    return (this.made ??= this.parent.child(this.bindings, this.options))
  }

  private write(level: Level, args: unknown[]) {
    if (this.made === undefined && !this.isOn(level)) return
    ;(this.logger()[level] as (...rest: unknown[]) => void)(...args)
  }

  private isOn(level: Level) {
    const values = this.parent.levels?.values
    return values === undefined || this.threshold === undefined || values[level]! >= this.threshold
  }
}

import fastJson from 'fast-json-stringify'
import { z, type ZodType } from 'zod'
import { ResponseSerializationError } from 'fastify-type-provider-zod'

type JsonSchema = { [key: string]: unknown }

// fast-json-stringify then writes the value or `null` directly instead of validating each branch on every response.
function withNullables(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNullables)
  if (schema === null || typeof schema !== 'object') return schema
  const node = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, withNullables(value)]),
  ) as JsonSchema
  const branches = node.anyOf as JsonSchema[] | undefined
  if (branches?.length === 2) {
    const nullIndex = branches.findIndex((branch) => branch.type === 'null' && Object.keys(branch).length === 1)
    const other = branches[1 - nullIndex]
    if (nullIndex !== -1 && other && typeof other.type === 'string') {
      const { anyOf: _anyOf, ...rest } = node
      return { ...rest, ...other, nullable: true }
    }
  }
  return node
}

// Compiling costs milliseconds a route, which every app built in the process would pay again (tests build many).
const stringifiers = new WeakMap<ZodType, (data: unknown) => string>()

function stringifierOf(zodSchema: ZodType) {
  let stringify = stringifiers.get(zodSchema)
  if (!stringify) {
    const jsonSchema = withNullables(
      z.toJSONSchema(zodSchema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }),
    )
    stringify = fastJson(jsonSchema as Parameters<typeof fastJson>[0])
    stringifiers.set(zodSchema, stringify)
  }
  return stringify
}

// fast-json-stringify, not zod (decision 016); `additionalProperties: false` keeps `is_correct` out.
export function createSerializerCompiler({ check }: { check: boolean }) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }) => {
    const zodSchema = schema as ZodType
    const stringify = stringifierOf(zodSchema)
    if (!check) return (data: unknown) => (data instanceof SerializedOnce ? data.jsonBy(stringify) : stringify(data))
    return (data: unknown) => {
      if (data instanceof SerializedOnce) data = data.value
      const result = zodSchema.safeParse(data)
      if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error })
      const checked = stringify(result.data)
      if (stringify(data) !== checked) {
        throw new Error(`${method} ${url}: the response written unchecked would differ from the checked one`)
      }
      return checked
    }
  }
}

/** A body many requests send alike, written once by its route's serializer, then sent as that string. */
export class SerializedOnce<T> {
  private json?: string
  private by?: (data: unknown) => string

  constructor(
    readonly value: T,
    private readonly written?: (chars: number) => void,
  ) {}

  jsonBy(stringify: (data: unknown) => string) {
    if (this.by !== stringify) {
      this.json = stringify(this.value)
      this.by = stringify
      this.written?.(this.json.length)
    }
    return this.json!
  }
}

export const sentAsWritten = <T>(body: SerializedOnce<T>) => body as unknown as T

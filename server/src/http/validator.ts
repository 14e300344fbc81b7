import type { FastifySchemaCompiler } from 'fastify'
import { validatorCompiler } from 'fastify-type-provider-zod'
import type { ZodType } from 'zod'
import { nulMessage, pathOfNul } from '../lib/nul'

/** zod's compiler with a NUL refused first, at its path, for every route's body, query string and parameters. */
export const validatorRefusingNul: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route)
  return (data) => {
    const path = pathOfNul(data)
    if (!path) return validate(data)
    const issue = {
      keyword: 'nul',
      instancePath: `/${path.join('/')}`,
      message: nulMessage,
      params: { issue: { path } },
    }
    return { error: [issue] } as unknown as ReturnType<typeof validate>
  }
}

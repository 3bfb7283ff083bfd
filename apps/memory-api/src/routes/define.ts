import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteAccess } from '../auth/auth.ts';
import type { MemoryContext } from '../context.ts';

/**
 * A route plugin of the API. Its instance carries the TypeBox type provider, so each handler's
 * `request.body` and `request.query` are the static types of the schemas the route validates
 * with: a request's shape is written once, in its schema.
 */
export type RoutePlugin<Options extends object = MemoryContext> = FastifyPluginAsyncTypebox<Options>;

/**
 * A route's registry entry in one call: its access tier (auth), what it does (/routes, the
 * OpenAPI summary, the MCP tool's description) and the names of its request and response types
 * (/routes), e.g. `read('one memory by id', 'query id', 'Memory')`.
 */
const entry = (access: RouteAccess) => (description: string, requestType?: string, responseType?: string) => ({
  access,
  description,
  ...(requestType === undefined ? {} : { requestType }),
  ...(responseType === undefined ? {} : { responseType }),
});
export const read = entry('read');
export const write = entry('write');

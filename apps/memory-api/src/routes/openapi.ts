import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { VERSION } from '../meta.ts';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

/** `POST /room/document/add` -> `room_document_add_post`: a stable operationId from the route. */
export const operationId = (method: string, url: string) =>
  `${url.replace(/^\//, '').replace(/[^\w]+/g, '_') || 'root'}_${method.toLowerCase()}`;

/**
 * The OpenAPI 3.1 description, generated from the routes' own schemas as they are registered (so
 * it cannot drift from what they validate), served at /openapi.json with an explorer at /docs whose
 * assets are served by this process (no CDN). Registered before the routes.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'memory-api',
        version: VERSION,
        description: 'Memories, recall, rooms, documents and a graph, for agents. Errors are `{"error": string}`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    // The route's registry entry (its description, and whether it needs a token) becomes the operation's.
    transform: ({ schema, url, route }) => {
      const config = (route.config ?? {}) as { description?: string; access?: string };
      const method = [route.method].flat()[0] as string;
      const needsToken = config.access === 'read' || config.access === 'write';
      return {
        url,
        schema: {
          ...schema,
          ...(config.description ? { summary: config.description } : {}),
          operationId: operationId(method, url),
          tags: [url.split('/')[1] || 'service'],
          ...(needsToken ? { security: [{ bearer: [] }] } : {}),
        } as typeof schema,
      };
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}

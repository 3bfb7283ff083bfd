import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { VERSION } from '../../meta.ts';
import { WS_DESCRIPTION } from '../ws/index.ts';

const plain = (summary: string, description: string, type = 'text/plain') => ({
  get: {
    tags: ['system'],
    summary,
    responses: { 200: { description, content: { [type]: { schema: { type: 'string' } } } } },
  },
});

/**
 * Routes the swagger plugin does not collect: the WebSocket upgrade and the service kit's probes,
 * which are registered without schemas. Written out here so the document still covers every route.
 */
const UNCOLLECTED_PATHS = {
  '/api/0/ws': {
    get: {
      tags: ['realtime'],
      summary: 'Live issue updates over a WebSocket (cookie authentication)',
      description: WS_DESCRIPTION,
      security: [{ session: [] }],
      responses: {
        101: { description: 'Switching protocols: the WebSocket is open' },
        401: { description: 'No valid session cookie' },
      },
    },
  },
  '/metrics': plain('Prometheus metrics', 'Prometheus text exposition format'),
  '/livez': plain('Liveness', '`{"status":"ok"}` while the process runs', 'application/json'),
  '/readyz': plain('Readiness', 'ready when the database (and Redis) answer; 503 otherwise', 'application/json'),
};

/**
 * The OpenAPI document is generated from the route schemas, so it cannot drift from what the
 * routes validate. Registered before the routes, which it collects as they are added.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    transformObject: (documents) => {
      const { openapiObject } = documents as { openapiObject: { paths?: object } };
      return { ...openapiObject, paths: { ...openapiObject.paths, ...UNCOLLECTED_PATHS } };
    },
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Trove errors-api',
        version: VERSION,
        description:
          'Sentry-compatible error tracking: ingest from the official SDKs, grouping, issues, alert rules, live updates.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'trove_session' },
          token: { type: 'http', scheme: 'bearer', description: 'An auth token from POST /api/0/api-tokens/' },
        },
      },
      tags: [
        { name: 'setup' },
        { name: 'auth' },
        { name: 'projects' },
        { name: 'issues' },
        { name: 'releases' },
        { name: 'source maps' },
        { name: 'alert rules' },
        { name: 'ingest' },
        { name: 'realtime' },
        { name: 'system' },
      ],
    },
  });
}

/** The explorer at /api/docs and the document at /api/docs/openapi.yaml. */
export async function docsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get(
    '/api/docs/openapi.yaml',
    { schema: { tags: ['system'], summary: 'This OpenAPI description, as YAML' } },
    async (_request, reply) => reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true })),
  );
}

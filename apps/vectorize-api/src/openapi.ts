import swagger, { type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { VERSION } from './meta.ts';
import { errorSchema } from './schemas/common.ts';
import { optimizeFormSchema } from './schemas/optimize.ts';
import { vectorizeFormSchema } from './schemas/vectorize.ts';

export const OPENAPI_JSON_PATH = '/v1/openapi.json';
export const EXPLORER_PATH = '/v1/docs';

// Multipart forms are read part by part by the routes (to stream and limit the upload), so Fastify
// does not validate them; their schemas are added to the document here instead.
const FORM_BODIES: Record<string, object> = {
  '/v1/vectorize': vectorizeFormSchema,
  '/v1/optimize': optimizeFormSchema,
};

type OpenApiDocument = { paths?: Record<string, { post?: Record<string, unknown> }> };

/** Serves the OpenAPI 3.1 description at /v1/openapi.json and an interactive explorer at /v1/docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(errorSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'vectorize-api',
        version: VERSION,
        description: 'Raster images to SVG, PDF or EPS; SVG optimisation. Errors are `{ "error": string }`.',
      },
      tags: [{ name: 'vectorize' }, { name: 'optimize' }, { name: 'service' }],
    },
    transformObject: (documentObject) => {
      const document = (documentObject as unknown as { openapiObject: OpenApiDocument }).openapiObject;
      for (const [path, schema] of Object.entries(FORM_BODIES)) {
        const operation = document.paths?.[path]?.post;
        if (operation) {
          operation.requestBody = { required: true, content: { 'multipart/form-data': { schema } } };
        }
      }
      return document as unknown as ReturnType<SwaggerTransformObject>;
    },
  });
  await app.register(swaggerUi, { routePrefix: EXPLORER_PATH });
  app.get(OPENAPI_JSON_PATH, { schema: { hide: true } }, async () => app.swagger());
}

import type { FastifyPluginAsync } from 'fastify';
import { VERSION } from '../../meta.ts';
import { healthRouteSchema } from '../../schemas/service.ts';

/** `GET /v1/health`: the spec's health response. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/v1/health', { schema: healthRouteSchema }, async () => ({ status: 'ok', version: VERSION }));
};

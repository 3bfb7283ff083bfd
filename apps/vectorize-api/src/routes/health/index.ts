import type { FastifyPluginAsync } from 'fastify';
import { VERSION } from '../../meta.ts';

/** `GET /v1/health`: the spec's health response. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/v1/health', async () => ({ status: 'ok', version: VERSION }));
};

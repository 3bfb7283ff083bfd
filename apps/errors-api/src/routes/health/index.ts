import type { FastifyPluginAsync } from 'fastify';

/** `GET /health`: plain-text `ok`, as the spec says; dependency state is on `/readyz`. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/health', async (_request, reply) => reply.type('text/plain; charset=utf-8').send('ok'));
};

import type { FastifyPluginAsync } from 'fastify';
import type { MemoryDatabase } from '../../db.ts';
import { VERSION } from '../../meta.ts';

/**
 * `GET /health`. The memory and namespace counts of the spec's HealthResponse arrive with the
 * memory tables; until then the answer carries status and version. 503 when the database is down.
 */
export const healthRoutes: FastifyPluginAsync<{ db: MemoryDatabase }> = async (app, { db }) => {
  app.get('/health', async (request, reply) => {
    try {
      await db.ping();
      return { status: 'ok', version: VERSION };
    } catch (err) {
      request.log.warn({ err }, 'health: database unreachable');
      return reply.code(503).send({ status: 'unavailable', version: VERSION });
    }
  });
};

import { createServer, type Logger, serviceKit } from '@trove/service-kit';
import { createSharedState, type SharedState } from '@trove/shared-state';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { MemoryConfig } from './config.ts';
import { type MemoryDatabase, openMemoryDatabase } from './db.ts';
import { SERVICE } from './meta.ts';
import { healthRoutes } from './routes/health/index.ts';

export interface MemoryAppOptions {
  config: MemoryConfig;
  db: MemoryDatabase;
  state: SharedState;
}

/** memory-api as a Fastify plugin: the service kit, then the routes of the spec. */
export const memoryApp = fp<MemoryAppOptions>(
  async (app, { db, state }) => {
    await app.register(serviceKit, {
      service: SERVICE,
      checks: {
        database: () => db.ping(),
        ...(state.backend === 'redis' ? { redis: () => state.ping() } : {}),
      },
    });
    await app.register(healthRoutes, { db });
  },
  { name: SERVICE },
);

/** Opens the app's dependencies and returns a ready server; closing the server closes them. */
export async function buildMemoryApp(config: MemoryConfig, logger: Logger): Promise<FastifyInstance> {
  const state = createSharedState({ redisUrl: config.REDIS_URL, keyPrefix: 'trove:memory:', logger });
  const db = await openMemoryDatabase(config).catch(async (err) => {
    await state.close();
    throw err;
  });
  const server = createServer({ logger, closeWith: [db, state] });
  await server.register(memoryApp, { config, db, state });
  return server;
}

import { createServer, type Logger, serviceKit } from '@trove/service-kit';
import { createSharedState, type SharedState } from '@trove/shared-state';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorsConfig } from './config.ts';
import { type ErrorsDatabase, openErrorsDatabase } from './db.ts';
import { SERVICE } from './meta.ts';
import { healthRoutes } from './routes/health/index.ts';

export interface ErrorsAppOptions {
  config: ErrorsConfig;
  db: ErrorsDatabase;
  state: SharedState;
}

/** errors-api as a Fastify plugin: the service kit, then the routes of the spec. */
export const errorsApp = fp<ErrorsAppOptions>(
  async (app, { db, state }) => {
    await app.register(serviceKit, {
      service: SERVICE,
      checks: {
        database: () => db.ping(),
        ...(state.backend === 'redis' ? { redis: () => state.ping() } : {}),
      },
    });
    await app.register(healthRoutes);
  },
  { name: SERVICE },
);

/** Opens the app's dependencies and returns a ready server; closing the server closes them. */
export async function buildErrorsApp(config: ErrorsConfig, logger: Logger): Promise<FastifyInstance> {
  const state = createSharedState({ redisUrl: config.REDIS_URL, keyPrefix: 'trove:errors:', logger });
  const db = await openErrorsDatabase(config).catch(async (err) => {
    await state.close();
    throw err;
  });
  const server = createServer({ logger, closeWith: [db, state] });
  await server.register(errorsApp, { config, db, state });
  return server;
}

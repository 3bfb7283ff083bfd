import { createServer, type Logger, serviceKit } from '@trove/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { VectorizeConfig } from './config.ts';
import { SERVICE } from './meta.ts';
import { healthRoutes } from './routes/health/index.ts';

export interface VectorizeAppOptions {
  config: VectorizeConfig;
}

/** vectorize-api as a Fastify plugin. It keeps no data, so it has no dependencies to check. */
export const vectorizeApp = fp<VectorizeAppOptions>(
  async (app) => {
    await app.register(serviceKit, { service: SERVICE });
    await app.register(healthRoutes);
  },
  { name: SERVICE },
);

export async function buildVectorizeApp(config: VectorizeConfig, logger: Logger): Promise<FastifyInstance> {
  const server = createServer({ logger });
  await server.register(vectorizeApp, { config });
  return server;
}

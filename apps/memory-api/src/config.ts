import { databaseEnv } from '@trove/data';
import { type ConfigOf, env, loadConfig, serverEnv } from '@trove/service-kit';

/** Every environment variable memory-api reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...serverEnv({ port: 8767, serviceName: 'memory-api' }),
  ...databaseEnv('memory-api'),
  REDIS_URL: env.url({
    description: 'Redis shared by replicas for rate limits, caches and pub/sub; unset keeps them in this process',
    protocols: ['redis:', 'rediss:'],
  }),
};

export type MemoryConfig = ConfigOf<typeof configSchema>;

export function readConfig(source: Record<string, string | undefined> = process.env): MemoryConfig {
  return loadConfig(configSchema, source);
}

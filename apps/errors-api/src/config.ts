import { databaseEnv } from '@trove/data';
import { type ConfigOf, env, loadConfig, serverEnv } from '@trove/service-kit';

/** Every environment variable errors-api reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...serverEnv({ port: 8769, serviceName: 'errors-api' }),
  ...databaseEnv('errors-api'),
  REDIS_URL: env.url({
    description: 'Redis shared by replicas for rate limits, caches and pub/sub; unset keeps them in this process',
    protocols: ['redis:', 'rediss:'],
  }),
};

export type ErrorsConfig = ConfigOf<typeof configSchema>;

export function readConfig(source: Record<string, string | undefined> = process.env): ErrorsConfig {
  return loadConfig(configSchema, source);
}

import { databaseEnv } from '@trove/data';
import { type ConfigOf, loadConfig, serverEnv } from '@trove/service-kit';
import { sharedStateEnv } from '@trove/shared-state';

/** Every environment variable errors-api reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...serverEnv({ port: 8769, serviceName: 'errors-api' }),
  ...databaseEnv('errors-api'),
  ...sharedStateEnv(),
};

export type ErrorsConfig = ConfigOf<typeof configSchema>;

export function readConfig(source: Record<string, string | undefined> = process.env): ErrorsConfig {
  return loadConfig(configSchema, source);
}

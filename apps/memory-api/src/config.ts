import { databaseEnv } from '@trove/data';
import { type ConfigOf, loadConfig, serverEnv } from '@trove/service-kit';
import { sharedStateEnv } from '@trove/shared-state';

/** Every environment variable memory-api reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...serverEnv({ port: 8767, serviceName: 'memory-api' }),
  ...databaseEnv('memory-api'),
  ...sharedStateEnv(),
};

export type MemoryConfig = ConfigOf<typeof configSchema>;

export function readConfig(source: Record<string, string | undefined> = process.env): MemoryConfig {
  return loadConfig(configSchema, source);
}

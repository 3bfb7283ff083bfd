import { type ConfigOf, loadConfig, serverEnv } from '@trove/service-kit';

/** Every environment variable vectorize-api reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...serverEnv({ port: 8768, serviceName: 'vectorize-api' }),
};

export type VectorizeConfig = ConfigOf<typeof configSchema>;

export function readConfig(source: Record<string, string | undefined> = process.env): VectorizeConfig {
  return loadConfig(configSchema, source);
}

import { createThrowawayDatabase } from '@trove/data';
import { missing } from '../../../../tests/support/requirements.ts';

export interface Engine {
  name: string;
  /** Environment for the app; creates a throwaway Postgres database when needed. */
  env(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
}

const embedded: Engine = {
  name: 'embedded',
  env: async () => ({ env: { DATA_DIR: 'memory://' }, drop: async () => {} }),
};

const postgres = (serverUrl: string): Engine => ({
  name: 'postgres',
  async env() {
    const db = await createThrowawayDatabase(serverUrl, 'errors');
    return { env: { DATABASE_URL: db.url, MIGRATE_ON_START: 'apply' }, drop: () => db.drop() };
  },
});

/** PGlite always; real Postgres too when TEST_DATABASE_URL names a server. */
export const ENGINES: Engine[] = missing('postgres')
  ? [embedded]
  : [embedded, postgres(process.env.TEST_DATABASE_URL as string)];

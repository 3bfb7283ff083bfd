import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { missing } from '../../../tests/support/requirements.ts';
import { createThrowawayDatabase, pgliteDriver, postgresDriver, type SqlDriver } from '../src/index.ts';
import { PGliteThread } from '../src/pglite-thread/pglite-thread.ts';

/** Set in CI (and by anyone with a Postgres at hand): the contract tests then also run there. */
export const postgresServerUrl = process.env.TEST_DATABASE_URL;

export interface OpenedEngine {
  driver: SqlDriver;
  /** A second, independent handle on the same database (another replica). */
  another(): Promise<{ driver: SqlDriver; close(): Promise<void> }>;
  url: string | undefined;
  close(): Promise<void>;
}

export interface Engine {
  name: 'pglite' | 'pglite-thread' | 'postgres';
  open(): Promise<OpenedEngine>;
}

const pglite: Engine = {
  name: 'pglite',
  async open() {
    const db = await PGlite.create();
    return {
      driver: pgliteDriver(db),
      url: undefined,
      another: async () => ({ driver: pgliteDriver(db), close: async () => {} }),
      close: () => db.close(),
    };
  },
};

/** PGlite on its own thread, as the apps open it. */
const pgliteThread: Engine = {
  name: 'pglite-thread',
  async open() {
    const db = await PGliteThread.open(undefined);
    return {
      driver: pgliteDriver(db),
      url: undefined,
      another: async () => ({ driver: pgliteDriver(db), close: async () => {} }),
      close: () => db.close(),
    };
  },
};

const postgres: Engine = {
  name: 'postgres',
  async open() {
    const database = await createThrowawayDatabase(postgresServerUrl as string, 'data');
    const pools: pg.Pool[] = [];
    const poolDriver = () => {
      const pool = new pg.Pool({ connectionString: database.url, max: 4 });
      // pool.end() resolves before its clients' sockets have closed, and close() then drops the
      // database WITH (FORCE): a client still closing gets 57P01, which a pool without an 'error'
      // listener throws as an uncaught exception (it failed a CI run). The apps' pools listen too.
      pool.on('error', () => {});
      pools.push(pool);
      return { driver: postgresDriver(pool), close: () => pool.end() };
    };
    return {
      driver: poolDriver().driver,
      url: database.url,
      another: async () => poolDriver(),
      async close() {
        await Promise.allSettled(pools.map((p) => p.end()));
        await database.drop();
      },
    };
  },
};

export const engines: Engine[] = missing('postgres') ? [pglite, pgliteThread] : [pglite, pgliteThread, postgres];

/** Writes migration folders (name -> SQL) into a fresh directory and returns it. */
export async function migrationsFixture(migrations: Record<string, string>, dir?: string): Promise<string> {
  const root = dir ?? (await mkdtemp(join(tmpdir(), 'trove-migrations-')));
  for (const [name, sql] of Object.entries(migrations)) {
    await mkdir(join(root, name), { recursive: true });
    await writeFile(join(root, name, 'migration.sql'), sql);
  }
  return root;
}

export async function tableNames(driver: SqlDriver): Promise<string[]> {
  const rows = await driver.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  return rows.map((r) => r.name);
}

import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { clusterTemplate } from '../src/cluster-template.ts';
import { openDatabase } from '../src/index.ts';
import { PGliteThread } from '../src/pglite-thread/pglite-thread.ts';
import { migrationsFixture } from './engines.ts';

const MIGRATIONS = { '20260101000000_init': 'CREATE TABLE notes (id SERIAL PRIMARY KEY, body TEXT NOT NULL);' };

describe('new embedded clusters from a copy of a new one (initdb once)', () => {
  it('the copy is taken before anything runs, and starts databases on a thread and in this one', async () => {
    let files: Uint8Array | undefined;
    const first = await PGliteThread.open(undefined, { onClusterFiles: (f) => (files = f) });
    await first.exec('CREATE TABLE first_only (v int); INSERT INTO first_only VALUES (1)');
    expect(files?.length).toBeGreaterThan(1_000_000);

    const onThread = await PGliteThread.open(undefined, { clusterFiles: files as Uint8Array });
    const inProcess = await PGlite.create({ loadDataDir: new Blob([files as Uint8Array]) });
    for (const db of [onThread, inProcess]) {
      const { rows } = await db.query<{ t: string | null }>("SELECT to_regclass('first_only')::text AS t");
      expect(rows).toEqual([{ t: null }]);
      await db.exec('CREATE TABLE mine (v int); INSERT INTO mine VALUES (2)');
      expect((await db.query('SELECT v FROM mine')).rows).toEqual([{ v: 2 }]);
    }
    expect((await first.query("SELECT to_regclass('mine')::text AS t")).rows).toEqual([{ t: null }]);
    await Promise.all([first.close(), onThread.close(), inProcess.close()]);
  });

  it.each([
    ['on its own thread', true],
    ['in this thread', false],
  ])('%s: in-memory databases from openDatabase each get their own data', async (_, thread) => {
    const migrationsDir = await migrationsFixture(MIGRATIONS);
    const open = () =>
      openDatabase({
        dataDir: 'memory://',
        thread,
        migrate: 'auto',
        migrationsDir,
        createClient: () => ({ $disconnect: async () => {} }),
      });
    const a = await open();
    expect(clusterTemplate()).toBeDefined();
    const b = await open();
    expect(a.appliedMigrations).toEqual(['20260101000000_init']);
    expect(b.appliedMigrations).toEqual(['20260101000000_init']);
    await a.sql.query('INSERT INTO notes (body) VALUES ($1)', ['only in a']);
    expect(await a.sql.query('SELECT body FROM notes')).toEqual([{ body: 'only in a' }]);
    expect(await b.sql.query('SELECT body FROM notes')).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });
});

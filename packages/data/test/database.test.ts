import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { createThrowawayDatabase, type DriverAdapterFactory, openDatabase } from '../src/index.ts';
import { migrationsFixture, postgresServerUrl } from './engines.ts';

const MIGRATIONS = { '20260101000000_init': 'CREATE TABLE notes (id SERIAL PRIMARY KEY, body TEXT NOT NULL);' };

/**
 * The data tier hands the driver adapter to the app's generated Prisma client; the apps' own tests
 * drive real Prisma clients through it. Here a recorder stands in for the client.
 */
function recordingClient(adapter: DriverAdapterFactory) {
  const client = { adapter, disconnected: 0, $disconnect: async () => void client.disconnected++ };
  return client;
}

async function open(
  url: string | undefined,
  dataDir: string,
  migrate: 'auto' | 'apply' | 'verify' = 'auto',
  thread?: boolean,
) {
  return openDatabase({
    url,
    dataDir,
    migrate,
    thread,
    migrationsDir: await migrationsFixture(MIGRATIONS),
    createClient: recordingClient,
  });
}

describe('openDatabase on the embedded database', () => {
  it.each([
    ['on its own thread', true],
    ['in this thread', false],
  ])('%s: applies migrations at start, keeps data in its directory, and closes once', async (_, thread) => {
    const dir = await mkdtemp(join(tmpdir(), 'trove-data-'));
    const db = await open(undefined, dir, 'auto', thread);
    expect(db.kind).toBe('pglite');
    expect(db.appliedMigrations).toEqual(['20260101000000_init']);
    await db.ping();
    await db.sql.query('INSERT INTO notes (body) VALUES ($1)', ['kept']);
    await Promise.all([db.close(), db.close()]);
    expect(db.prisma.disconnected).toBe(1);
    await expect(db.ping()).rejects.toThrow();

    const again = await open(undefined, dir, 'auto', thread);
    expect(again.appliedMigrations).toEqual([]);
    expect(await again.sql.query('SELECT body FROM notes')).toEqual([{ body: 'kept' }]);
    await again.close();
  });

  it('refuses a second process on the same directory, and takes over a stale lock', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trove-data-'));
    const db = await open(undefined, dir);
    // Same process, second open: still refused, because PGlite files allow one opener.
    writeFileSync(join(dir, 'trove.lock'), String(process.ppid));
    await expect(open(undefined, dir)).rejects.toThrow(`data directory ${dir} is in use by process ${process.ppid}`);
    writeFileSync(join(dir, 'trove.lock'), String(process.pid));
    await db.close();
    expect(existsSync(join(dir, 'trove.lock'))).toBe(false);

    // A lock left by a process that no longer runs is taken over.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, 'trove.lock'), dead.stdout);
    const reopened = await open(undefined, dir);
    await reopened.ping();
    await reopened.close();
  });

  it('in verify mode refuses a database that lacks migrations, and changes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trove-data-'));
    await expect(open(undefined, dir, 'verify')).rejects.toThrow(
      'the database lacks migrations 20260101000000_init; run the migrate command',
    );
    // Nothing was applied by the refused open: applying now still has the whole history to do.
    const db = await open(undefined, dir, 'apply');
    expect(db.appliedMigrations).toEqual(['20260101000000_init']);
    await db.close();
  });
});

describe.skipIf(missing('postgres'))('openDatabase on Postgres', () => {
  it('verifies by default (the migrate job applies), applies when asked, and closes its pool', async () => {
    const database = await createThrowawayDatabase(postgresServerUrl as string, 'open');
    try {
      await expect(open(database.url, 'unused')).rejects.toThrow(/lacks migrations 20260101000000_init/);
      const migrated = await open(database.url, 'unused', 'apply');
      expect(migrated.kind).toBe('postgres');
      expect(migrated.appliedMigrations).toEqual(['20260101000000_init']);
      await migrated.close();

      const db = await open(database.url, 'unused');
      expect(db.appliedMigrations).toEqual([]);
      await db.sql.query('INSERT INTO notes (body) VALUES ($1)', ['x']);
      await db.close();
      await expect(db.ping()).rejects.toThrow();
    } finally {
      await database.drop();
    }
  });
});

// Needs no server: nothing listens on port 1.
describe('openDatabase when Postgres cannot be reached', () => {
  it('names Postgres and its address, never the password', async () => {
    const failure = await open('postgres://postgres:secret@127.0.0.1:1/none', 'unused').catch((err: Error) => err);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('Postgres at postgres://postgres@127.0.0.1:1/none refused the connection');
    expect(String(((failure as Error).cause as Error).message)).toMatch(/ECONNREFUSED 127\.0\.0\.1:1/);
  });
});

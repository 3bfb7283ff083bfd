import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  applyMigrations,
  describeSchema,
  diffSnapshots,
  MigrationError,
  migrationStatus,
  readMigrations,
} from '../src/index.ts';
import { engines, migrationsFixture, type OpenedEngine, tableNames } from './engines.ts';

const FIRST = {
  '20260101000000_init': 'CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL);',
  '20260102000000_add_tags': 'CREATE TABLE tags (thing_id INTEGER REFERENCES things(id), tag TEXT NOT NULL);',
};

describe.each(engines)('migrations on $name', (engine) => {
  let db: OpenedEngine;
  beforeAll(async () => {
    db = await engine.open();
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    await db.driver.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  });

  it('applies pending migrations in order, records them, and does nothing the second time', async () => {
    const dir = await migrationsFixture(FIRST);
    const migrations = await readMigrations(dir);
    expect(await applyMigrations(db.driver, migrations)).toEqual(Object.keys(FIRST));
    expect(await tableNames(db.driver)).toEqual(['_prisma_migrations', 'tags', 'things']);

    const history = await db.driver.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(history.map((h) => h.migration_name)).toEqual(Object.keys(FIRST));
    // Prisma's checksum: SHA-256 of the file, so Prisma's own tools agree with this history.
    expect(history[0]?.checksum).toBe(createHash('sha256').update(FIRST['20260101000000_init']).digest('hex'));
    expect(history.every((h) => h.finished_at !== null)).toBe(true);

    expect(await applyMigrations(db.driver, migrations)).toEqual([]);
    expect(await migrationStatus(db.driver, migrations)).toEqual({ applied: Object.keys(FIRST), pending: [] });
  });

  it('applies only what is new when a later build adds a migration', async () => {
    const dir = await migrationsFixture(FIRST);
    await applyMigrations(db.driver, await readMigrations(dir));
    await migrationsFixture({ '20260103000000_more': 'ALTER TABLE things ADD COLUMN size INTEGER;' }, dir);
    expect(await applyMigrations(db.driver, await readMigrations(dir))).toEqual(['20260103000000_more']);
    await db.driver.query('INSERT INTO things (id, name, size) VALUES (1, $1, 3)', ['x']);
  });

  it('rolls a failing migration back whole and names it', async () => {
    const dir = await migrationsFixture({
      ...FIRST,
      '20260103000000_broken': 'CREATE TABLE half_done (id INTEGER); SELECT no_such_function();',
    });
    const migrations = await readMigrations(dir);
    await expect(applyMigrations(db.driver, migrations)).rejects.toThrow(
      /migration 20260103000000_broken failed and was rolled back/,
    );
    expect(await tableNames(db.driver)).not.toContain('half_done');
    const status = await migrationStatus(db.driver, migrations);
    expect(status).toEqual({ applied: Object.keys(FIRST), pending: ['20260103000000_broken'] });
  });

  it('refuses a migration that was edited after it was applied', async () => {
    const dir = await migrationsFixture(FIRST);
    await applyMigrations(db.driver, await readMigrations(dir));
    await writeFile(join(dir, '20260101000000_init', 'migration.sql'), 'CREATE TABLE things (id BIGINT);');
    const edited = await readMigrations(dir);
    await expect(applyMigrations(db.driver, edited)).rejects.toThrow(MigrationError);
    await expect(applyMigrations(db.driver, edited)).rejects.toThrow(/20260101000000_init was edited after/);
  });

  it('refuses a database that is ahead of this build', async () => {
    await applyMigrations(db.driver, await readMigrations(await migrationsFixture(FIRST)));
    const older = await readMigrations(
      await migrationsFixture({ '20260101000000_init': FIRST['20260101000000_init'] }),
    );
    await expect(applyMigrations(db.driver, older)).rejects.toThrow(
      /has migration 20260102000000_add_tags, which this build/,
    );
  });

  it('reports status without changing anything', async () => {
    const migrations = await readMigrations(await migrationsFixture(FIRST));
    expect(await migrationStatus(db.driver, migrations)).toEqual({ applied: [], pending: Object.keys(FIRST) });
    expect(await tableNames(db.driver)).toEqual([]);
  });

  it('lets replicas that start together take turns', async () => {
    const migrations = await readMigrations(await migrationsFixture(FIRST));
    const replicas = await Promise.all([db.another(), db.another(), db.another()]);
    const results = await Promise.all(replicas.map((r) => applyMigrations(r.driver, migrations)));
    await Promise.all(replicas.map((r) => r.close()));
    expect(results.flat().sort()).toEqual(Object.keys(FIRST));
    const [count] = await db.driver.query<{ n: number }>('SELECT count(*)::int AS n FROM _prisma_migrations');
    expect(count?.n).toBe(2);
  });

  it('describes two schemas built the same way identically, and shows what differs', async () => {
    await applyMigrations(db.driver, await readMigrations(await migrationsFixture(FIRST)));
    const first = await describeSchema(db.driver);
    expect(first).toContain('column things.name text not null');
    expect(first).toContain('constraint tags.tags_thing_id_fkey FOREIGN KEY (thing_id) REFERENCES things(id)');
    expect(first.some((l) => l.includes('_prisma_migrations'))).toBe(false);

    await db.driver.exec('ALTER TABLE things ALTER COLUMN name DROP NOT NULL');
    const { missing, unexpected } = diffSnapshots(first, await describeSchema(db.driver));
    expect(missing).toEqual(['column things.name text not null']);
    expect(unexpected).toEqual(['column things.name text']);
  });
});

describe('readMigrations', () => {
  it('refuses folders that are not named like migrations', async () => {
    const dir = await migrationsFixture({ 'init-tables': 'SELECT 1;' });
    await expect(readMigrations(dir)).rejects.toThrow(/YYYYMMDDHHMMSS_snake_case: init-tables/);
  });
});

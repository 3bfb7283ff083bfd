import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlDriver, SqlSession } from './driver.ts';

/**
 * Applies the SQL migrations under `prisma/<db>/migrations/` (Prisma's folder layout) without the
 * Prisma migration CLI, which cannot run offline. Progress is kept in `_prisma_migrations` with
 * Prisma's columns and checksums, so Prisma's own tools read the same history.
 */

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationStatus {
  applied: string[];
  pending: string[];
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

const NAME = /^\d{14}_[a-z0-9_]+$/;
// Any constant works; it only has to be the same in every replica of every version.
const ADVISORY_LOCK_KEY = 7_266_150_482;

const HISTORY_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const bad = names.filter((n) => !NAME.test(n));
  if (bad.length > 0) {
    throw new MigrationError(`migration folders must be named YYYYMMDDHHMMSS_snake_case: ${bad.join(', ')}`);
  }
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

async function appliedRows(session: SqlSession) {
  return session.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations"
     WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
}

/** Compares the history in the database with the migrations on disk; throws if they cannot be reconciled. */
async function compare(session: SqlSession, migrations: Migration[]): Promise<MigrationStatus> {
  const known = new Map(migrations.map((m) => [m.name, m]));
  const rows = await appliedRows(session);
  for (const row of rows) {
    const migration = known.get(row.migration_name);
    if (!migration) {
      throw new MigrationError(
        `the database has migration ${row.migration_name}, which this build does not know; run a build at least as new as the database`,
      );
    }
    if (migration.checksum !== row.checksum) {
      throw new MigrationError(
        `migration ${row.migration_name} was edited after it was applied; add a new migration instead of changing an applied one`,
      );
    }
  }
  const applied = new Set(rows.map((r) => r.migration_name));
  return {
    applied: [...applied],
    pending: migrations.filter((m) => !applied.has(m.name)).map((m) => m.name),
  };
}

async function applyOne(session: SqlSession, migration: Migration): Promise<void> {
  await session.exec('BEGIN');
  try {
    await session.exec(migration.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await session.exec('COMMIT');
  } catch (err) {
    await session.exec('ROLLBACK');
    throw new MigrationError(`migration ${migration.name} failed and was rolled back: ${(err as Error).message}`);
  }
}

/**
 * Applies pending migrations in name order, each in its own transaction. On Postgres a session
 * advisory lock makes replicas that start together take turns; the second finds nothing to do.
 */
export async function applyMigrations(driver: SqlDriver, migrations: Migration[]): Promise<string[]> {
  return driver.withSession(async (session) => {
    const locking = driver.kind === 'postgres';
    if (locking) await session.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    try {
      await session.exec(HISTORY_TABLE);
      const { pending } = await compare(session, migrations);
      for (const name of pending) {
        await applyOne(session, migrations.find((m) => m.name === name) as Migration);
      }
      return pending;
    } finally {
      if (locking) await session.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
    }
  });
}

/** Reports applied and pending migrations without changing anything. */
export async function migrationStatus(driver: SqlDriver, migrations: Migration[]): Promise<MigrationStatus> {
  const [exists] = await driver.query<{ present: boolean }>(
    `SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS present`,
  );
  if (!exists?.present) return { applied: [], pending: migrations.map((m) => m.name) };
  return compare(driver, migrations);
}

/**
 * Helpers for the scripts that generate Prisma clients and write and check migrations. The Prisma
 * CLIs try to download engines they do not need for these commands; the variables below stop that.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = resolve(import.meta.dirname, '..');

export const DATABASES = {
  memory: { app: 'memory-api' },
  errors: { app: 'errors-api' },
} as const;
export type DatabaseName = keyof typeof DATABASES;

export const schemaPath = (db: DatabaseName) => join(ROOT, 'prisma', db, 'schema.prisma');
export const migrationsDir = (db: DatabaseName) => join(ROOT, 'prisma', db, 'migrations');

const OFFLINE_ENV = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true',
  PRISMA_QUERY_ENGINE_LIBRARY: '/bin/true',
  PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};

const run = promisify(execFile);

export function parseDatabaseArg(arg: string | undefined): DatabaseName[] {
  if (arg === undefined || arg === 'all') return Object.keys(DATABASES) as DatabaseName[];
  if (arg in DATABASES) return [arg as DatabaseName];
  throw new Error(`unknown database "${arg}": use ${Object.keys(DATABASES).join(', ')} or all`);
}

/** Runs the Prisma 7 CLI (client generation). */
export async function prisma7(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [join(ROOT, 'node_modules/prisma/build/index.js'), ...args], {
    cwd: ROOT,
    env: OFFLINE_ENV,
  });
  return stdout;
}

/**
 * Prisma 6's `migrate diff` wants a `url` in the datasource block, which Prisma 7 schemas may not
 * carry, so it is given a copy with a placeholder URL added.
 */
async function prisma6Copy(schemaFile: string): Promise<string> {
  const text = await readFile(schemaFile, 'utf8');
  const withUrl = text.replace(
    /datasource\s+db\s*\{([^}]*)\}/,
    (_m, body) => `datasource db {${body}  url = "postgresql://localhost/placeholder"\n}`,
  );
  const dir = await mkdtemp(join(tmpdir(), 'trove-prisma6-'));
  const copy = join(dir, 'schema.prisma');
  await writeFile(copy, withUrl);
  return copy;
}

/** SQL that takes a database from schema `from` (or empty) to schema `to`. */
export async function diffSql(from: string | 'empty', to: string): Promise<string> {
  const fromArgs = from === 'empty' ? ['--from-empty'] : ['--from-schema-datamodel', await prisma6Copy(from)];
  const args = [
    join(ROOT, 'node_modules/prisma6/build/index.js'),
    'migrate',
    'diff',
    '--config',
    join(ROOT, 'prisma/prisma6.config.ts'),
    ...fromArgs,
    '--to-schema-datamodel',
    await prisma6Copy(to),
    '--script',
  ];
  const { stdout } = await run(process.execPath, args, { cwd: ROOT, env: OFFLINE_ENV, maxBuffer: 64 * 1024 * 1024 });
  // The CLI prints a config banner before the SQL.
  return stdout.replace(/^Loaded Prisma config[^\n]*\n+/, '');
}

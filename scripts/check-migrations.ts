/**
 * CI check: for each database, (1) the migrations build exactly the schema that the Prisma schema
 * file describes, and (2) the committed generated Prisma client matches the schema.
 *   npm run db:check [-- memory|errors|all]
 * (1) applies the migrations to one empty embedded database and Prisma's own SQL for the schema to
 * another, and compares their catalogs; (2) regenerates the client in a temporary directory.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations, describeSchema, diffSnapshots, pgliteDriver, readMigrations } from '@trove/data';
import {
  DATABASES,
  type DatabaseName,
  diffSql,
  migrationsDir,
  parseDatabaseArg,
  prisma7,
  ROOT,
  schemaPath,
} from './prisma-tools.ts';

async function checkMigrations(db: DatabaseName): Promise<string[]> {
  const [expectedSql, migrations] = await Promise.all([
    diffSql('empty', schemaPath(db)),
    readMigrations(migrationsDir(db)),
  ]);
  const fromSchema = await PGlite.create();
  const fromMigrations = await PGlite.create();
  try {
    await fromSchema.exec(expectedSql);
    await applyMigrations(pgliteDriver(fromMigrations), migrations);
    const sessionOf = (p: PGlite) => pgliteDriver(p);
    const { missing, unexpected } = diffSnapshots(
      await describeSchema(sessionOf(fromSchema)),
      await describeSchema(sessionOf(fromMigrations)),
    );
    return [
      ...missing.map((l) => `${db}: in schema.prisma but not built by the migrations: ${l}`),
      ...unexpected.map((l) => `${db}: built by the migrations but not in schema.prisma: ${l}`),
    ];
  } finally {
    await Promise.all([fromSchema.close(), fromMigrations.close()]);
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

async function checkGeneratedClient(db: DatabaseName): Promise<string[]> {
  const committed = join(ROOT, 'apps', DATABASES[db].app, 'src/generated/prisma');
  // The schema is copied to the same depth in a scratch tree and keeps its output path, because
  // the generated code embeds the schema text, output path included.
  const scratch = await mkdtemp(join(tmpdir(), 'trove-generate-'));
  const copy = join(scratch, relative(ROOT, schemaPath(db)));
  await mkdir(dirname(copy), { recursive: true });
  await copyFile(schemaPath(db), copy);
  await prisma7(['generate', '--schema', copy]);
  const fresh = join(scratch, relative(ROOT, committed));
  const [want, have] = await Promise.all([listFiles(fresh), listFiles(committed).catch(() => [])]);
  const problems: string[] = [];
  for (const file of new Set([...want, ...have])) {
    const [a, b] = await Promise.all([
      readFile(join(fresh, file), 'utf8').catch(() => null),
      readFile(join(committed, file), 'utf8').catch(() => null),
    ]);
    if (a !== b) problems.push(`${db}: generated client file ${file} is out of date; run npm run generate`);
  }
  return problems;
}

const databases = parseDatabaseArg(process.argv[2]);
const problems = (await Promise.all(databases.flatMap((db) => [checkMigrations(db), checkGeneratedClient(db)]))).flat();
if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error('\nTo fix drift: npm run migration:new -- <db> <name> (or npm run generate for the client)');
  process.exit(1);
}
console.log(`migrations and generated clients match their schemas: ${databases.join(', ')}`);

/**
 * Writes the migration for the changes made to a Prisma schema since its last migration:
 *   npm run migration:new -- <memory|errors> <snake_case_name>
 * Each migration folder keeps a copy of the schema it leads to, so the next diff starts there.
 * The SQL may be edited before it is committed (for what Prisma cannot express); `npm run db:check`
 * then proves the migrations still build exactly the schema.
 */
import { copyFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { diffSql, migrationsDir, parseDatabaseArg, schemaPath } from './prisma-tools.ts';

const [dbArg, name] = process.argv.slice(2);
if (!dbArg || dbArg === 'all' || !name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run migration:new -- <memory|errors> <snake_case_name>');
  process.exit(2);
}
const [db] = parseDatabaseArg(dbArg) as [ReturnType<typeof parseDatabaseArg>[number]];
const dir = migrationsDir(db);
await mkdir(dir, { recursive: true });

const previous = (await readdir(dir)).filter((n) => /^\d{14}_/.test(n)).sort();
const last = previous.at(-1);
let from: string | 'empty' = 'empty';
if (last) {
  from = join(dir, last, 'schema.prisma');
  await stat(from).catch(() => {
    throw new Error(`${last} has no schema.prisma snapshot to diff from`);
  });
}

const sql = await diffSql(from, schemaPath(db));
const statements = sql.replace(/--[^\n]*\n/g, '').trim();
if (statements === '' || statements === '-- This is an empty migration.') {
  console.log(`the ${db} schema has not changed since ${last ?? 'the start'}; nothing written`);
  process.exit(0);
}

const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const folder = join(dir, `${stamp}_${name}`);
await mkdir(folder);
await writeFile(join(folder, 'migration.sql'), sql);
await copyFile(schemaPath(db), join(folder, 'schema.prisma'));
await writeFile(join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
console.log(`wrote ${folder}/migration.sql; review it, then run npm run db:check`);

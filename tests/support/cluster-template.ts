/**
 * Vitest global setup: makes one new embedded cluster and writes its files to a file that every test
 * worker loads (cluster-template-seed.ts). A new in-memory database then starts from a copy (about
 * 1 s) instead of running initdb (about 3 s): the suite opens over a hundred of them. The same path a
 * process takes after its first in-memory database (packages/data/src/cluster-template.ts), so the
 * tests exercise what runs. A new cluster depends only on PGlite's version: the file is kept in
 * node_modules/.cache under that version, and later runs reuse it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { copyCluster } from '@trove/data/cluster-template';
import type { TestProject } from 'vitest/node';
import { ROOT } from './processes.ts';

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  const manifest = join(require.resolve('@electric-sql/pglite'), '../../package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

export default async function setup(project: TestProject): Promise<void> {
  const dir = join(ROOT, 'node_modules', '.cache', 'trove-cluster-template');
  const file = join(dir, `pglite-${pgliteVersion()}.tar`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const db = await PGlite.create();
    // Whole or not at all: a run that stops half way leaves no file behind it under the final name.
    writeFileSync(`${file}.${process.pid}`, await copyCluster(db));
    await db.close();
    renameSync(`${file}.${process.pid}`, file);
  }
  project.provide('troveClusterTemplate', file);
}

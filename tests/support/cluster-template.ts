/**
 * Vitest global setup: makes one new embedded cluster for the whole run and writes its files to a
 * temporary file, which every test worker loads (cluster-template-seed.ts). A new in-memory
 * database then starts from a copy (about 1 s) instead of running initdb (about 3 s): the suite
 * opens over a hundred of them. The same path a process takes after its first in-memory database
 * (packages/data/src/cluster-template.ts), so the tests exercise what runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { copyCluster } from '@trove/data/cluster-template';
import type { TestProject } from 'vitest/node';

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'trove-cluster-'));
  const file = join(dir, 'cluster.tar');
  const db = await PGlite.create();
  writeFileSync(file, await copyCluster(db));
  await db.close();
  project.provide('troveClusterTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}

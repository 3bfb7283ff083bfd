import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HashEmbedder } from '@trove/embeddings';
import { afterAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { inProcessCatalog } from '../src/memories/memory-index.ts';
import { openTestApp, type TestApp } from './helpers.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');
const open: TestApp[] = [];
afterAll(async () => {
  for (const t of open) await t.close().catch(() => {});
});

/** The core flow on one engine: writes, every recall arm, isolation, search, list, tags, namespaces, export. */
async function coreFlow(t: TestApp) {
  const add = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', '/remember', body);
    expect(res.status).toBeLessThan(300);
    return res.body;
  };
  const a = await add({
    content: 'the billing service retries webhooks five times',
    namespace: 'x',
    tags: ['billing'],
  });
  const b = await add({
    content: 'the billing service retries webhooks nine times',
    namespace: 'y',
    tags: ['billing'],
  });
  expect((await add({ content: 'the billing service retries webhooks five times', namespace: 'x' })).id).toBe(a.id);
  for (const strategy of ['fusion', 'vector', 'fts5', 'hybrid', 'graph']) {
    const x = await t.call('POST', '/recall', { query: 'billing webhooks retries', namespace: 'x', strategy });
    const y = await t.call('POST', '/recall', { query: 'billing webhooks retries', namespace: 'y', strategy });
    expect(
      x.body.map((r: { id: string }) => r.id),
      strategy,
    ).toEqual([a.id]);
    expect(
      y.body.map((r: { id: string }) => r.id),
      strategy,
    ).toEqual([b.id]);
  }
  expect((await t.call('POST', '/search', { query: 'webhooks', tags: ['billing'] })).body).toHaveLength(2);
  expect((await t.call('POST', '/list', { include_meta: true })).body.total).toBe(2);
  expect((await t.call('POST', '/tags/rename', { old: 'billing', new: 'payments' })).body.updated).toBe(2);
  expect((await t.call('POST', '/namespaces/rename', { from: 'y', to: 'x' })).body.moved).toBe(1);
  expect((await t.call('DELETE', `/forget?id=${a.id}`)).status).toBe(200);
  expect(
    (await t.call('POST', '/recall', { query: 'billing webhooks', namespace: 'x' })).body.map(
      (r: { id: string }) => r.id,
    ),
  ).toEqual([b.id]);
  expect((await t.call('GET', '/export')).body).toHaveLength(2);
  expect((await t.call('POST', '/verify')).body.mismatch).toBe(false);
  return { a, b };
}

/** The re-embed command as a user runs it: its own process, configured by environment. */
function runReembed(env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'apps/memory-api/src/reembed.ts'],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe('embedded database (PGlite) on disk', () => {
  it('rebuilds the index from stored embeddings at start; refuses another model until the re-embed command ran', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'memory-api-persist-'));
    try {
      const first = await openTestApp({ env: { DATA_DIR: dir }, embedder: new HashEmbedder(32) });
      const { b } = await coreFlow(first);
      await first.close();

      const second = await openTestApp({ env: { DATA_DIR: dir }, embedder: new HashEmbedder(32) });
      expect((await second.call('POST', '/verify')).body).toMatchObject({ rows: 2, vectors: 2, mismatch: false });
      const hit = await second.call('POST', '/recall', { query: 'billing webhooks nine', strategy: 'vector' });
      expect(hit.body[0].id).toBe(b.id);
      await second.close();

      // Another model (EMBEDDER=hash is hash-64): refused at start, in one line that says what to run.
      await expect(openTestApp({ env: { DATA_DIR: dir }, embedder: new HashEmbedder(64) })).rejects.toThrow(
        /2 memories and 0 documents by hash-32\) than the configured one \(hash-64 .*npm run reembed -w apps\/memory-api/,
      );
      const reembedded = await runReembed({ DATA_DIR: dir, EMBEDDER: 'hash' });
      expect(reembedded.out).toContain('re-embedded 2 memories and 0 documents with hash-64');
      expect(reembedded.code).toBe(0);
      // Run again, it finds nothing left to do (a stopped run resumes the same way).
      expect((await runReembed({ DATA_DIR: dir, EMBEDDER: 'hash' })).out).toContain('re-embedded 0 memories');

      const third = await openTestApp({ env: { DATA_DIR: dir }, embedder: new HashEmbedder(64) });
      expect((await third.call('POST', '/verify')).body).toMatchObject({
        rows: 2,
        embedded_rows: 2,
        vectors: 2,
        embedding_model: 'hash-64',
        mismatch: false,
      });
      expect((await third.call('GET', `/memory?id=${b.id}`)).body.embedding_model).toBe('hash-64');
      await third.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the vector graph kept beside the embedded database', () => {
  const graphFiles = ['vector-index.hnsw', 'vector-index.hnsw.json'];
  const reused = (t: TestApp) => inProcessCatalog(t.app.memoryStore.index).reused;
  const nearest = async (t: TestApp, query: string) =>
    (await t.call('POST', '/recall', { query, strategy: 'vector', limit: 1 })).body[0]?.id;

  it('is read back at start, keeping only the vectors the rows still hold, and never a damaged file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'memory-api-graph-'));
    const embedder = new HashEmbedder(32);
    const start = () => openTestApp({ env: { DATA_DIR: dir }, embedder });
    try {
      const first = await start();
      const ids: string[] = [];
      for (const content of [
        'the cache warms up at dawn',
        'backups run nightly at two',
        'the gateway rotates keys weekly',
      ]) {
        ids.push((await first.call('POST', '/remember', { content })).body.id);
      }
      expect(reused(first)).toBe(0); // nothing saved yet
      await first.close();
      const older = await Promise.all(graphFiles.map((f) => readFile(join(dir, f))));

      const second = await start();
      expect(reused(second)).toBe(3);
      expect((await second.call('POST', '/verify')).body).toMatchObject({ rows: 3, vectors: 3, mismatch: false });
      expect(await nearest(second, 'backups nightly')).toBe(ids[1]);
      // Rewritten and added after the older graph was saved; then that older graph is put back, as
      // a crash before the next clean stop would leave it.
      const rewritten = { id: ids[0], content: 'invoices are sent on the first monday' };
      expect((await second.call('PUT', '/memory', rewritten)).status).toBe(200);
      const added = (await second.call('POST', '/remember', { content: 'the pager rings for disk alerts' })).body.id;
      await second.close();
      await Promise.all(graphFiles.map((f, i) => writeFile(join(dir, f), older[i] as Buffer)));

      const third = await start();
      expect(reused(third)).toBe(2); // the two whose vectors did not change
      expect((await third.call('POST', '/verify')).body).toMatchObject({ rows: 4, vectors: 4, mismatch: false });
      expect(await nearest(third, 'invoices first monday')).toBe(ids[0]);
      expect(await nearest(third, 'pager disk alerts')).toBe(added);
      await third.close();

      // A damaged graph file is not read at all: a plain rebuild.
      await writeFile(join(dir, graphFiles[0] as string), 'not a graph');
      const fourth = await start();
      expect(reused(fourth)).toBe(0);
      expect((await fourth.call('POST', '/verify')).body).toMatchObject({ rows: 4, vectors: 4, mismatch: false });
      expect(await nearest(fourth, 'gateway rotates keys')).toBe(ids[2]);
      await fourth.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(missing('postgres'))('Postgres', () => {
  it('runs the core flow on a real Postgres server', async () => {
    const t = await openTestApp({ database: 'postgres' });
    open.push(t);
    await coreFlow(t);
  });
});

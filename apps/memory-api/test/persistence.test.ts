import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashEmbedder } from '@trove/embeddings';
import { afterAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { openTestApp, type TestApp } from './helpers.ts';

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

describe('embedded database (PGlite) on disk', () => {
  it('rebuilds the index from stored embeddings at start, and re-embeds when the model changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'memory-api-persist-'));
    try {
      const first = await openTestApp({ env: { DATA_DIR: dir } });
      const { b } = await coreFlow(first);
      await first.close();

      const second = await openTestApp({ env: { DATA_DIR: dir } });
      expect((await second.call('POST', '/verify')).body).toMatchObject({ rows: 2, vectors: 2, mismatch: false });
      const hit = await second.call('POST', '/recall', { query: 'billing webhooks nine', strategy: 'vector' });
      expect(hit.body[0].id).toBe(b.id);
      await second.close();

      // Another embedder: stored vectors of the old model are replaced at start.
      const third = await openTestApp({ env: { DATA_DIR: dir }, embedder: new HashEmbedder(32) });
      const verify = (await third.call('POST', '/verify')).body;
      expect(verify).toMatchObject({
        rows: 2,
        embedded_rows: 2,
        vectors: 2,
        embedding_model: 'hash-32',
        mismatch: false,
      });
      expect((await third.call('GET', `/memory?id=${b.id}`)).body.embedding_model).toBe('hash-32');
      await third.close();
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

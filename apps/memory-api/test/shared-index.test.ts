import { randomUUID } from 'node:crypto';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@trove/data';
import { EmbeddedVectorStore, QdrantVectorStore, type VectorStore } from '@trove/embeddings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { openTestApp, postgresUrl, type TestApp } from './helpers.ts';

/**
 * Two replicas on one Postgres sharing one vector store, as with Qdrant (QDRANT_URL): writes
 * through one are searched at once through the other, the shared store's position in the change
 * log is kept in Postgres, a restart resumes from it, and a replica that finds the log trimmed past
 * it rebuilds the store in place. Runs on the embedded store handed to both replicas, and on a real
 * Qdrant too where QDRANT_URL names one (no Qdrant server can run on the build machines).
 */

const DIMS = 64; // the test apps' hashing embedder

function suite(name: string, openStore: () => VectorStore) {
  describe.skipIf(missing('postgres'))(`replicas sharing ${name}`, () => {
    let db: ThrowawayDatabase;
    let store: VectorStore;
    const apps: TestApp[] = [];
    let a: TestApp;
    let b: TestApp;
    const open = async () => {
      const t = await openTestApp({
        env: { DATABASE_URL: db.url, MIGRATE_ON_START: 'apply', CONTRADICTION_THRESHOLD: '0.6' },
        sharedVectors: store,
      });
      apps.push(t);
      return t;
    };
    const recallIds = async (t: TestApp, query: string, strategy = 'vector', strict = false) =>
      (await t.call('POST', '/recall', { query, namespace: 'shared', strategy, limit: 20, strict })).body.map(
        (r: { id: string }) => r.id,
      );
    const remember = async (t: TestApp, content: string, extra: Record<string, unknown> = {}) =>
      (await t.call('POST', '/remember', { content, namespace: 'shared', ...extra })).body;

    beforeAll(async () => {
      db = await createThrowawayDatabase(postgresUrl as string, 'memory');
      store = openStore();
      await store.reset();
      a = await open();
      b = await open();
    });
    afterAll(async () => {
      for (const t of apps) await t.close().catch(() => {});
      await store.reset().catch(() => {});
      await store.close();
      await db.drop();
    });

    it('searches what another replica wrote at once, and never what it forgot or rewrote', async () => {
      const written = [];
      for (let i = 0; i < 20; i++) written.push(await remember(a, `shared fact number ${i} about topic ${i * 7}`));
      const target = written[5];
      expect(await recallIds(b, target.content)).toContain(target.id);
      expect((await b.call('DELETE', `/forget?id=${target.id}`)).status).toBe(200);
      for (const strategy of ['vector', 'fusion', 'hybrid']) {
        expect(await recallIds(a, target.content, strategy), strategy).not.toContain(target.id);
      }
      const changed = written[6];
      expect(
        (await b.call('PUT', '/memory', { id: changed.id, content: 'the warehouse opens at nine on saturdays' }))
          .status,
      ).toBe(200);
      // Strict: the old text no longer matches it (its new text may still resemble the old one a
      // little, by chance of the embedder, and a 20-hit vector search returns every memory).
      expect(await recallIds(a, changed.content, 'vector', true)).not.toContain(changed.id);
      expect(await recallIds(a, 'warehouse opens saturdays')).toContain(changed.id);
      const again = await remember(b, written[7].content);
      expect(again).toMatchObject({ id: written[7].id, duplicate: true });
      for (const t of [a, b]) {
        expect((await t.call('POST', '/verify')).body).toMatchObject({
          rows: 20,
          vectors: 20,
          missing_from_index: 0,
          status_mismatches: 0,
          vector_mismatches: 0,
          mismatch: false,
          index: store.description,
        });
      }
    });

    it('keeps its position in the change log in Postgres; a restart resumes there, a trimmed log rebuilds', async () => {
      const position = async () =>
        Number(
          (
            await a.app.memoryStore.db.sql.query<{ position: string }>(
              'SELECT max(position)::text AS position FROM shared_vector_index',
            )
          )[0]?.position ?? 0,
        );
      const made = await remember(a, 'the backup job runs every night at two');
      const [{ id: latest } = { id: '0' }] = await a.app.memoryStore.db.sql.query<{ id: string }>(
        'SELECT max(id)::text AS id FROM vector_changes',
      );
      // Saved at most once a second, and on stop.
      await b.close();
      apps.splice(apps.indexOf(b), 1);
      expect(await position()).toBeGreaterThanOrEqual(Number(latest));

      // A point lost behind everyone's back: a resumed replica does not rebuild, so it stays lost...
      await store.delete([made.id]);
      b = await open();
      expect((await b.call('POST', '/verify')).body).toMatchObject({ missing_from_index: 1, mismatch: true });
      // ...until the log is trimmed past the saved position, which makes a starting replica rebuild.
      await b.close();
      apps.splice(apps.indexOf(b), 1);
      await a.app.memoryStore.db.sql.query(
        'UPDATE vector_change_horizon SET trimmed_through = (SELECT max(position) + 1 FROM shared_vector_index) WHERE id = 1',
      );
      await store.delete([made.id]);
      b = await open();
      expect((await b.call('POST', '/verify')).body).toMatchObject({ missing_from_index: 0, mismatch: false });
      expect(await recallIds(a, 'backup job every night')).toContain(made.id);
    });

    it('repairs in place: /repair puts back what is missing and drops what no row has', async () => {
      const made = await remember(a, 'the office plants are watered on mondays');
      await store.delete([made.id]);
      const now = Date.now();
      await store.upsert([
        {
          id: randomUUID(),
          vector: new Float32Array(DIMS).fill(1 / Math.sqrt(DIMS)),
          payload: {
            namespace: 'shared',
            type: 'fact',
            status: 'active',
            tags: [],
            category: null,
            entity: null,
            createdAt: now,
            updatedAt: now,
            deprecatedAt: null,
            validUntil: null,
            contentHash: 'no such row',
          },
        },
      ]);
      expect((await a.call('POST', '/verify')).body).toMatchObject({ missing_from_index: 1, not_in_database: 1 });
      const repaired = await b.call('POST', '/repair');
      expect(repaired.body.after).toMatchObject({ missing_from_index: 0, not_in_database: 0, mismatch: false });
      expect((await a.call('POST', '/verify')).body.mismatch).toBe(false);
    });
  });
}

suite('one in-process store', () => new EmbeddedVectorStore(DIMS));

/** The shared store with a switch that makes every call fail, as an unreachable Qdrant does. */
class Unplugged extends EmbeddedVectorStore {
  down = false;
  private check(): void {
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:6333');
  }
  override async upsert(...args: Parameters<EmbeddedVectorStore['upsert']>) {
    this.check();
    return super.upsert(...args);
  }
  override async delete(ids: string[]) {
    this.check();
    return super.delete(ids);
  }
  override async search(...args: Parameters<EmbeddedVectorStore['search']>) {
    this.check();
    return super.search(...args);
  }
  override async retrieve(ids: string[]) {
    this.check();
    return super.retrieve(ids);
  }
}

describe.skipIf(missing('postgres'))('a shared vector store that cannot be reached', () => {
  it('refuses what needs it with a 503 naming it, acknowledges the rest, and catches up once it is back', async () => {
    const db = await createThrowawayDatabase(postgresUrl as string, 'memory');
    const store = new Unplugged(DIMS);
    const t = await openTestApp({
      env: { DATABASE_URL: db.url, MIGRATE_ON_START: 'apply', CHANGE_FEED_POLL_MS: '50' },
      sharedVectors: store,
    });
    const vectorIds = async (query: string) =>
      (await t.call('POST', '/recall', { query, namespace: 'n', strategy: 'vector' })).body.map(
        (r: { id: string }) => r.id,
      );
    try {
      const kept = (await t.call('POST', '/remember', { content: 'the lift is serviced every march', namespace: 'n' }))
        .body;
      const gone = (await t.call('POST', '/remember', { content: 'parking permits renew in june', namespace: 'n' }))
        .body;
      store.down = true;
      // A new memory needs the index for its duplicate and contradiction checks: refused, nothing stored.
      const refused = await t.call('POST', '/remember', { content: 'the roof was repaired in may', namespace: 'n' });
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatch(/^in-process HNSW could not be read: connect ECONNREFUSED/);
      expect((await t.call('POST', '/list', { namespace: 'n', include_meta: true })).body.total).toBe(2);
      expect(
        (await t.call('POST', '/recall', { query: 'lift serviced', namespace: 'n', strategy: 'vector' })).status,
      ).toBe(503);
      // Full text does not need the vector store; a forget does not wait for it.
      const text = await t.call('POST', '/recall', { query: 'lift serviced', namespace: 'n', strategy: 'fts5' });
      expect(text.body.map((r: { id: string }) => r.id)).toEqual([kept.id]);
      expect((await t.call('DELETE', `/forget?id=${gone.id}`)).status).toBe(200);
      store.down = false;
      const deadline = Date.now() + 10_000;
      while ((await store.payload(gone.id))?.status !== 'deprecated' && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(await vectorIds('parking permits renew')).not.toContain(gone.id);
      expect(await vectorIds('lift serviced')).toEqual([kept.id]);
      expect((await t.call('POST', '/verify')).body.mismatch).toBe(false);
    } finally {
      await t.close();
      await db.drop();
    }
  });
});

const qdrantUrl = process.env.QDRANT_URL;
if (qdrantUrl) {
  suite('Qdrant', () =>
    new QdrantVectorStore({
      url: qdrantUrl,
      apiKey: process.env.QDRANT_API_KEY,
      model: 'hash-64',
      dimensions: DIMS,
      prefix: `trove_replicas_${process.pid}`,
    }));
} else {
  console.warn(
    'skipped: memory-api replicas on a real Qdrant (QDRANT_URL is not set; run a Qdrant server, e.g. docker run -p 6333:6333 qdrant/qdrant, and set QDRANT_URL=http://127.0.0.1:6333). Allowed under TROVE_REQUIRE_ALL=1: no Qdrant runs in CI.',
  );
}

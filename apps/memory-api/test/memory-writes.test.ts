import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inferMemoryType, MEMORY_TYPES } from '../src/memories/memory-types.ts';
import { openTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  // The hashing embedder scores shared words; these bounds suit it (the defaults suit GloVe).
  t = await openTestApp({
    env: { DUPLICATE_THRESHOLD: '0.95', LINK_THRESHOLD: '0.5', CONTRADICTION_THRESHOLD: '0.6' },
  });
});
afterAll(() => t.close());

const remember = (body: Record<string, unknown>) => t.call('POST', '/remember', body);

describe('POST /remember', () => {
  it('stores content with tags, namespace, metadata, provenance and a SHA-256 content hash', async () => {
    const res = await remember({
      content: 'The staging database lives on host db-stage-2',
      tags: ['infra', 'db', 'infra'],
      namespace: 'ops',
      type: 'fact',
      metadata: { team: 'platform', category: 'overwritten' },
      category: 'infrastructure',
      entity: 'db-stage-2',
      source: 'runbook.md',
      author_type: 'agent',
      valid_from: '2026-01-01T00:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      content: 'The staging database lives on host db-stage-2',
      tags: ['infra', 'db'],
      namespace: 'ops',
      type: 'fact',
      memory_type: 'fact',
      metadata: { team: 'platform', category: 'infrastructure', entity: 'db-stage-2' },
      importance: 0.5,
      pinned: false,
      status: 'active',
      source: 'runbook.md',
      source_type: 'user',
      author_type: 'agent',
      valid_from: '2026-01-01T00:00:00.000Z',
      content_hash: createHash('sha256').update('The staging database lives on host db-stage-2').digest('hex'),
    });
    const got = await t.call('GET', `/memory?id=${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('answers the row as stored, field for field and in jsonb key order, whichever statement wrote it', async () => {
    const bodies = [
      // jsonb orders keys by length, then bytes: the answer must show the stored order, not the sent one.
      { content: 'Quarterly numbers are due on the fifth', metadata: { zeta: 1, a: { y: [1, 2], b: 'é' }, mid: null } },
      { content: 'Ask Priya about the VPN certificate', tags: ['vpn'], valid_until: '2027-02-03T04:05:06.789Z' },
      { content: 'We chose Postgres for the ledger', source_type: 'agent', author_type: 'system', type: 'decision' },
      // Near the one before: links it (the full statement); then one that retires it.
      { content: 'The ledger team chose Postgres after a long review' },
      { content: 'We chose MySQL for the ledger', detect_contradiction: true },
    ];
    const answers = [];
    for (const body of bodies) {
      const res = await remember(body);
      expect(res.status, body.content).toBe(201);
      answers.push(res.body);
      const got = await t.call('GET', `/memory?id=${res.body.id}`);
      const { superseded: _, ...answered } = res.body;
      expect(JSON.stringify(answered), body.content).toBe(JSON.stringify(got.body));
    }
    expect((await prismaEdges(answers[3].id)).map((e) => e.edgeType)).toContain('similar_to');
    expect(answers[4].superseded.id).toBe(answers[2].id);
  });

  it('finds a new memory by the next search, before its deferred graph insert would have run', async () => {
    const store = t.app.memoryStore;
    const content = 'The coffee machine on floor three is descaled on Fridays';
    const input = {
      content,
      tags: [],
      namespace: 'deferred',
      memoryType: 'fact',
      metadata: {},
      source: null,
      sourceType: 'user',
      authorType: null,
      validFrom: null,
      validUntil: null,
      detectContradiction: false,
      evidence: {},
    };
    const { row } = await store.remember(input);
    // No macrotask has run since the answer, so the insert is still pending: the search applies it.
    const hits = await store.search(await store.embedOne(content), 3, { namespace: 'deferred' });
    expect(hits.map((h) => h.id)).toEqual([row.id]);
  });

  it('rejects an unknown type with the list of valid types, and stores nothing', async () => {
    const before = (await t.call('GET', '/stats')).body.total;
    const res = await remember({ content: 'something odd', type: 'rumour' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('"rumour"');
    for (const type of MEMORY_TYPES) expect(res.body.error).toContain(type);
    expect((await t.call('GET', '/stats')).body.total).toBe(before);
  });

  it('infers the type when it is omitted', async () => {
    expect(inferMemoryType('The user prefers tea over coffee')).toBe('preference');
    expect(inferMemoryType('We decided to use Postgres for the queue')).toBe('decision');
    expect(inferMemoryType('How to rotate keys: first revoke, then reissue')).toBe('procedure');
    expect(inferMemoryType('Docs are at https://example.com/docs')).toBe('reference');
    expect(inferMemoryType('The outage happened yesterday at noon')).toBe('event');
    expect(inferMemoryType('We learned that retries hide bugs')).toBe('insight');
    expect(inferMemoryType('Paris is the capital of France')).toBe('fact');
    const res = await remember({ content: 'Alice likes her reports as PDF files' });
    expect(res.body.type).toBe('preference');
  });

  it('rejects malformed bodies with 400 {error}', async () => {
    for (const body of [
      {},
      { content: '' },
      { content: 'x', metadata: [1] },
      { content: 'x', valid_from: 'yesterday' },
      { content: 'x', namespace: 7 },
    ]) {
      const res = await remember(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
  });

  it('returns the existing memory for a near-duplicate in the same namespace, not across namespaces', async () => {
    const first = await remember({
      content: 'Invoices are sent on the first Monday of each month',
      namespace: 'billing',
    });
    const again = await remember({
      content: 'Invoices are sent on the first Monday of each month.',
      namespace: 'billing',
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, duplicate: true });
    const elsewhere = await remember({
      content: 'Invoices are sent on the first Monday of each month',
      namespace: 'other',
    });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.body.id);
  });

  it('links similar memories with similar_to edges', async () => {
    const a = await remember({ content: 'release train leaves every second Tuesday morning', namespace: 'links' });
    const b = await remember({ content: 'release train leaves every second Tuesday evening', namespace: 'links' });
    expect(b.status).toBe(201);
    const rows = await prismaEdges(b.body.id);
    expect(rows).toContainEqual(
      expect.objectContaining({ sourceId: b.body.id, targetId: a.body.id, edgeType: 'similar_to' }),
    );
  });

  it('detect_contradiction retires the nearest live memory: superseded_by edge and timeline events, in one go', async () => {
    const old = await remember({ content: 'The team standup is at 9:30 in room Orion', namespace: 'team' });
    const next = await remember({
      content: 'The team standup is at 10:00 in room Orion',
      namespace: 'team',
      detect_contradiction: true,
    });
    expect(next.status).toBe(201);
    expect(next.body.superseded.id).toBe(old.body.id);
    const retired = await t.call('GET', `/memory?id=${old.body.id}`);
    expect(retired.body.status).toBe('deprecated');
    expect(retired.body.deprecated_at).not.toBeNull();
    const edges = await prismaEdges(old.body.id);
    expect(edges).toContainEqual(
      expect.objectContaining({ sourceId: old.body.id, targetId: next.body.id, edgeType: 'superseded_by' }),
    );
    const oldEvents = (await prismaEvents(old.body.id)).map((e) => e.kind);
    const newEvents = (await prismaEvents(next.body.id)).map((e) => e.kind);
    expect(oldEvents).toEqual(['created', 'superseded']);
    expect(newEvents).toEqual(['created', 'supersedes']);
    // The retired one is gone from recall, the new one is there.
    const recall = await t.call('POST', '/recall', { query: 'team standup room Orion', namespace: 'team' });
    const ids = recall.body.map((r: { id: string }) => r.id);
    expect(ids).toContain(next.body.id);
    expect(ids).not.toContain(old.body.id);
  });
});

describe('GET and PUT /memory', () => {
  it('404s an unknown id and 400s a malformed one', async () => {
    expect((await t.call('GET', '/memory?id=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const bad = await t.call('GET', '/memory?id=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('UUID');
  });

  it('re-embeds on a content change and keeps the vector on a namespace move', async () => {
    const m = await remember({ content: 'Grafana dashboards live in folder Observability', namespace: 'ops2' });
    const id = m.body.id;
    const moved = await t.call('PUT', '/memory', {
      id,
      namespace: 'ops3',
      tags: ['grafana'],
      importance: 0.9,
      pinned: true,
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      namespace: 'ops3',
      tags: ['grafana'],
      importance: 0.9,
      pinned: true,
      content_hash: m.body.content_hash,
    });
    const inOld = await t.call('POST', '/recall', {
      query: 'Grafana dashboards folder',
      namespace: 'ops2',
      strategy: 'vector',
    });
    const inNew = await t.call('POST', '/recall', {
      query: 'Grafana dashboards folder',
      namespace: 'ops3',
      strategy: 'vector',
    });
    expect(inOld.body.map((r: { id: string }) => r.id)).not.toContain(id);
    expect(inNew.body[0].id).toBe(id);

    const changed = await t.call('PUT', '/memory', {
      id,
      content: 'Kibana saved searches live in space Logs',
      memory_type: 'reference',
    });
    expect(changed.body.type).toBe('reference');
    expect(changed.body.content_hash).toBe(
      createHash('sha256').update('Kibana saved searches live in space Logs').digest('hex'),
    );
    const byNewWords = await t.call('POST', '/recall', {
      query: 'Kibana saved searches',
      namespace: 'ops3',
      strategy: 'vector',
    });
    expect(byNewWords.body[0].id).toBe(id);
    const events = (await prismaEvents(id)).map((e) => e.kind);
    expect(events).toEqual(['created', 'updated', 'updated']);
  });

  it('replaces metadata whole and validates every field', async () => {
    const m = await remember({ content: 'Metadata replacement check', metadata: { a: 1, b: 2 } });
    const res = await t.call('PUT', '/memory', { id: m.body.id, metadata: { c: 3 } });
    expect(res.body.metadata).toEqual({ c: 3 });
    for (const patch of [
      { importance: 2 },
      { memory_type: 'gossip' },
      { tags: [1] },
      { pinned: 'yes' },
      { content: '' },
    ]) {
      const r = await t.call('PUT', '/memory', { id: m.body.id, ...patch });
      expect(r.status, JSON.stringify(patch)).toBe(400);
    }
    expect(
      (await t.call('PUT', '/memory', { id: '00000000-0000-4000-8000-000000000000', importance: 0.1 })).status,
    ).toBe(404);
    expect((await t.call('GET', `/memory?id=${m.body.id}`)).body.metadata).toEqual({ c: 3 });
  });
});

describe('DELETE /forget, pin, importance, feedback', () => {
  it('soft-deletes: the row stays readable by id, hidden from recall, search, list and recent', async () => {
    const m = await remember({ content: 'Temporary credentials rotate hourly', namespace: 'forget' });
    const res = await t.call('DELETE', `/forget?id=${m.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, id: m.body.id, status: 'deprecated' });
    expect((await t.call('GET', `/memory?id=${m.body.id}`)).body.status).toBe('deprecated');
    for (const strategy of ['fusion', 'vector', 'fts5', 'hybrid', 'graph']) {
      const r = await t.call('POST', '/recall', {
        query: 'temporary credentials rotate hourly',
        strategy,
        namespace: 'forget',
      });
      expect(r.body, strategy).toEqual([]);
    }
    expect((await t.call('POST', '/search', { query: 'credentials', namespace: 'forget' })).body).toEqual([]);
    expect((await t.call('POST', '/list', { namespace: 'forget' })).body).toEqual([]);
    expect((await t.call('GET', '/recent?namespace=forget')).body).toEqual([]);
  });

  it('404s an unknown id, also as a JSON body', async () => {
    expect((await t.call('DELETE', '/forget?id=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.call('DELETE', '/forget', { id: '00000000-0000-4000-8000-000000000001' })).status).toBe(404);
    expect((await t.call('DELETE', '/forget')).status).toBe(400);
  });

  it('pins and unpins (both APIs), sets importance, counts feedback, each on the timeline', async () => {
    const m = await remember({ content: 'Pin me, I matter', namespace: 'pins' });
    const id = m.body.id;
    expect((await t.call('POST', '/memory/pin', { id, pinned: true })).body.pinned).toBe(true);
    expect((await t.call('POST', '/unpin', { id })).body.pinned).toBe(false);
    expect((await t.call('POST', '/pin', { id })).body.pinned).toBe(true);
    expect((await t.call('POST', '/memory/importance', { id, importance: 0.8 })).body.importance).toBe(0.8);
    expect((await t.call('POST', '/memory/importance', { id, importance: 1.5 })).status).toBe(400);
    await t.call('POST', '/memory/feedback', { id, feedback: 'helpful' });
    const fb = await t.call('POST', '/memory/feedback', { id, feedback: 'helpful' });
    expect(fb.body.feedback).toEqual({ helpful: 2, unhelpful: 0 });
    expect((await t.call('POST', '/memory/feedback', { id, feedback: 'meh' })).status).toBe(400);
    expect((await t.call('POST', '/pin', { id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    const kinds = (await prismaEvents(id)).map((e) => e.kind);
    expect(kinds).toEqual(['created', 'pinned', 'unpinned', 'pinned', 'importance_set', 'feedback', 'feedback']);
  });
});

async function prismaEdges(id: string) {
  return t.app.memoryStore.db.prisma.memoryEdge.findMany({ where: { OR: [{ sourceId: id }, { targetId: id }] } });
}
async function prismaEvents(id: string) {
  return t.app.memoryStore.db.prisma.memoryEvent.findMany({ where: { memoryId: id }, orderBy: { id: 'asc' } });
}

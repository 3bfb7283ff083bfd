import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { FULL_TOKEN as FULL, openTestApp, READ_TOKEN as READ, type TestApp } from './helpers.ts';

// The hashing embedder scores shared words. A high duplicate bound at write time lets near-copies
// into a room, so that consolidation has something to find.
const env = { DUPLICATE_THRESHOLD: '0.99', LINK_THRESHOLD: '0.5', AUTH_TOKENS: FULL, READ_ONLY_TOKENS: READ };

let t: TestApp;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, token = FULL) =>
  t.call(method, url, body, token);
beforeAll(async () => {
  t = await openTestApp({ env });
});
afterAll(() => t.close());

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
const say = (room_id: string, content: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/room/remember', { room_id, content, ...extra });

describe('rooms: create, remember, memories, stats', () => {
  it('creates a room once (409 the second time) and validates the name', async () => {
    const res = await call('POST', '/room/create', { name: 'standup', title: 'Daily standup', namespace: 'team' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ room_id: 'standup', title: 'Daily standup', description: '', namespace: 'team' });
    expect((await call('POST', '/room/create', { name: 'standup' })).status).toBe(409);
    for (const body of [{}, { name: '' }, { name: 7 }, { name: 'x'.repeat(201) }, { name: 'a\nb' }]) {
      const bad = await call('POST', '/room/create', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(typeof bad.body.error).toBe('string');
    }
  });

  it('remembers into a room with author, role and joined_at; a near-duplicate links the existing memory', async () => {
    const first = await say('standup', 'Alice finished the billing migration', { author: 'alice', tags: ['billing'] });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ namespace: 'team', room_id: 'standup', author: 'alice', role: 'participant' });
    expect(Date.parse(first.body.joined_at)).not.toBeNaN();
    // Same content: the store answers with the existing memory, which is already in the room.
    const again = await say('standup', 'Alice finished the billing migration', { author: 'bob' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, duplicate: true, author: 'alice', linked: false });
    // A memory remembered plainly, then said in the room, is linked (not copied).
    const plain = await call('POST', '/remember', { content: 'Bob is on call this week', namespace: 'team' });
    const linked = await say('standup', 'Bob is on call this week', { author: 'bob', role: 'lead' });
    expect(linked.body).toMatchObject({ id: plain.body.id, linked: true, author: 'bob', role: 'lead' });
    const timeline = (await call('GET', `/timeline?id=${plain.body.id}`)).body;
    const kinds = (timeline.events ?? timeline).map((e: { kind: string }) => e.kind);
    expect(kinds).toContain('room_joined');

    expect((await say('nowhere', 'x')).status).toBe(404);
    expect((await say('standup', 'x', { type: 'rumour' })).status).toBe(400);
  });

  it('lists memories in join order, filters by author, hides deprecated ones; stats count them', async () => {
    const c = await say('standup', 'Carol will review the release notes', { author: 'carol' });
    const all = (await call('GET', '/room/memories?room_id=standup')).body;
    expect(all.map((m: { content: string }) => m.content)).toEqual([
      'Alice finished the billing migration',
      'Bob is on call this week',
      'Carol will review the release notes',
    ]);
    const bob = (await call('GET', '/room/memories?room_id=standup&author=bob')).body;
    expect(bob.map((m: { author: string }) => m.author)).toEqual(['bob']);
    expect((await call('DELETE', `/forget?id=${c.body.id}`)).status).toBe(200);
    const after = (await call('GET', '/room/memories?room_id=standup')).body;
    expect(ids(after)).not.toContain(c.body.id);
    const stats = await call('POST', '/room/stats', { room_id: 'standup' });
    expect(stats.body).toMatchObject({ room_id: 'standup', count: 3, active: 2, deprecated: 1, documents: 0 });
    expect(stats.body.authors.map((a: { author: string }) => a.author).sort()).toEqual(['alice', 'bob', 'carol']);
    expect((await call('GET', '/room/memories?room_id=missing')).status).toBe(404);
    expect((await call('GET', '/room/memories')).status).toBe(400);
  });
});

describe('rooms: recall', () => {
  beforeAll(async () => {
    await call('POST', '/room/create', { name: 'infra' });
    await say('infra', 'The kafka cluster runs on three brokers', { author: 'ops' });
    await say('infra', 'Postgres backups run every night at two', { author: 'dba' });
    await say('infra', 'Grafana dashboards show kafka consumer lag', { author: 'ops' });
    // The same subject outside the room must not come back.
    await call('POST', '/remember', { content: 'The kafka cluster in staging has one broker' });
  });

  it('ranks the room’s members by meaning and never returns non-members', async () => {
    const res = await call('POST', '/room/recall', { room_id: 'infra', query: 'kafka brokers' });
    expect(res.status).toBe(200);
    expect(res.body[0].content).toBe('The kafka cluster runs on three brokers');
    for (const r of res.body) {
      expect(r.room_id).toBe('infra');
      expect(r.score).toBeGreaterThan(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    expect(res.body.map((r: { content: string }) => r.content)).not.toContain(
      'The kafka cluster in staging has one broker',
    );
    const strict = await call('POST', '/room/recall', { room_id: 'infra', query: 'kafka brokers', min_score: 0.99 });
    expect(strict.body).toEqual([]);
    const ops = await call('POST', '/room/recall', { room_id: 'infra', query: 'backups', author: 'dba', limit: 1 });
    expect(ops.body.map((r: { author: string }) => r.author)).toEqual(['dba']);
  });

  it('is chronological without a query, and time-travels with `at`', async () => {
    const chrono = (await call('POST', '/room/recall', { room_id: 'infra' })).body;
    expect(chrono.map((r: { author: string }) => r.author)).toEqual(['ops', 'dba', 'ops']);
    expect(chrono[0].score).toBeUndefined();
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const late = await say('infra', 'Kafka retention was raised to seven days', { author: 'ops' });
    await call('DELETE', `/forget?id=${chrono[1].id}`);
    const now = (await call('POST', '/room/recall', { room_id: 'infra', query: 'kafka' })).body;
    expect(ids(now)).toContain(late.body.id);
    const then = (await call('POST', '/room/recall', { room_id: 'infra', query: 'kafka backups', at: before })).body;
    expect(ids(then)).not.toContain(late.body.id);
    // Deprecated after `at`: it existed then, so time travel still sees it.
    const thenChrono = (await call('POST', '/room/recall', { room_id: 'infra', at: before })).body;
    expect(ids(thenChrono)).toEqual(ids(chrono));
    expect((await call('POST', '/room/recall', { room_id: 'infra', at: 'yesterday' })).status).toBe(400);
    expect((await call('POST', '/room/recall', { room_id: 'infra', min_score: 2 })).status).toBe(400);
  });
});

describe('rooms: summary and consolidation', () => {
  beforeAll(async () => {
    await call('POST', '/room/create', { name: 'notes' });
    await say('notes', 'The deploy pipeline runs every Friday at noon', { author: 'a' });
    await say('notes', 'The deploy pipeline runs every Friday at noon sharp', { author: 'b' });
    await say('notes', 'Lunch is served in the east kitchen', { author: 'a' });
  });

  it('summarises clusters and statistics deterministically', async () => {
    const one = await call('POST', '/room/summary', { room_id: 'notes', threshold: 0.8 });
    expect(one.status).toBe(200);
    expect(one.body.stats).toMatchObject({ memories: 3, clustered: 3, truncated: false, cluster_count: 2 });
    expect(one.body.clusters[0]).toMatchObject({ size: 2, authors: ['a', 'b'] });
    expect(one.body.clusters[1].representative.content).toBe('Lunch is served in the east kitchen');
    expect((await call('POST', '/room/summary', { room_id: 'notes', threshold: 0.8 })).body).toEqual(one.body);
    expect((await call('POST', '/room/summary', { room_id: 'nope' })).status).toBe(404);
  });

  it('plans merges by default, applies them only with apply:true, and a read-only token gets 403', async () => {
    const plan = await call('POST', '/room/consolidate', { room_id: 'notes', threshold: 0.85 });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ dry_run: true, candidates: 1, applied: 0, remaining: 1, budget_cap: 50 });
    expect(plan.body.plan[0].keep.content).toBe('The deploy pipeline runs every Friday at noon');
    const removeId = plan.body.plan[0].remove[0].id;
    expect((await call('GET', `/memory?id=${removeId}`)).body.status).toBe('active');

    const denied = await call('POST', '/room/consolidate', { room_id: 'notes', apply: true }, READ);
    expect(denied.status).toBe(403);
    expect((await call('GET', `/memory?id=${removeId}`)).body.status).toBe('active');

    const applied = await call('POST', '/room/consolidate', { room_id: 'notes', threshold: 0.85, apply: true });
    expect(applied.body).toMatchObject({ dry_run: false, applied: 1, deprecated: [removeId], remaining: 0 });
    expect((await call('GET', `/memory?id=${removeId}`)).body.status).toBe('deprecated');
    const events = (await call('GET', `/timeline?id=${removeId}`)).body;
    expect((events.events ?? events).map((e: { kind: string }) => e.kind)).toContain('deprecated');
    // Hidden from the room's listings and recall, counted by stats.
    expect(ids((await call('GET', '/room/memories?room_id=notes')).body)).not.toContain(removeId);
    expect(ids((await call('POST', '/room/recall', { room_id: 'notes', query: 'deploy friday' })).body)).not.toContain(
      removeId,
    );
    expect((await call('POST', '/room/stats', { room_id: 'notes' })).body).toMatchObject({ count: 3, deprecated: 1 });
    expect((await call('POST', '/room/summary', { room_id: 'notes' })).body.stats.memories).toBe(2);
  });
});

describe('rooms: rename, update, move, delete', () => {
  it('renames with every member and document link, in one step; 404 missing, 409 taken', async () => {
    await call('POST', '/room/create', { name: 'old-name', title: 'T', description: 'D', namespace: 'team' });
    const m = await say('old-name', 'Renames keep every link of the room', { author: 'x' });
    await call('POST', '/room/document', { room_id: 'old-name', content: 'r'.repeat(600), slug: 'rename-doc' });
    const res = await call('POST', '/room/rename', { from: 'old-name', to: 'new-name' });
    expect(res.body).toEqual({ from: 'old-name', to: 'new-name', members: 1, documents: 1 });
    const list = (await call('GET', '/room/list?namespace=team')).body;
    expect(list.map((r: { room_id: string }) => r.room_id)).toContain('new-name');
    expect(list.map((r: { room_id: string }) => r.room_id)).not.toContain('old-name');
    expect(list.find((r: { room_id: string }) => r.room_id === 'new-name')).toMatchObject({
      title: 'T',
      description: 'D',
      namespace: 'team',
      members: 1,
      documents: 1,
    });
    const members = (await call('GET', '/room/memories?room_id=new-name')).body;
    expect(members).toMatchObject([{ id: m.body.id, author: 'x', joined_at: m.body.joined_at }]);
    expect((await call('POST', '/room/rename', { from: 'old-name', to: 'other' })).status).toBe(404);
    await call('POST', '/room/create', { name: 'taken' });
    expect((await call('POST', '/room/rename', { from: 'new-name', to: 'taken' })).status).toBe(409);
    expect((await call('POST', '/room/rename', { from: 'new-name', to: 'x' }, READ)).status).toBe(403);
    expect((await call('GET', '/room/memories?room_id=new-name')).body).toHaveLength(1);
  });

  it('updates title/description (404 missing; 403 read-only)', async () => {
    const res = await call('POST', '/room/update', { room_id: 'new-name', title: 'New title' });
    expect(res.body).toMatchObject({ title: 'New title', description: 'D' });
    expect((await call('POST', '/room/update', { room_id: 'ghost', title: 'x' })).status).toBe(404);
    expect((await call('POST', '/room/update', { room_id: 'new-name', title: 'no' }, READ)).status).toBe(403);
    expect((await call('POST', '/room/list')).status).toBe(404);
  });

  it('moves a link keeping author, role and joined_at; 404 without a link in from_room', async () => {
    const m = await say('new-name', 'This memory changes rooms', { author: 'mover', role: 'guest' });
    const res = await call('POST', '/room/memory/move', {
      memory_id: m.body.id,
      from_room: 'new-name',
      to_room: 'taken',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      room_id: 'taken',
      memory_id: m.body.id,
      author: 'mover',
      role: 'guest',
      joined_at: m.body.joined_at,
    });
    const again = await call('POST', '/room/memory/move', {
      memory_id: m.body.id,
      from_room: 'new-name',
      to_room: 'taken',
    });
    expect(again.status).toBe(404);
    const ro = await call(
      'POST',
      '/room/memory/move',
      { memory_id: m.body.id, from_room: 'taken', to_room: 'new-name' },
      READ,
    );
    expect(ro.status).toBe(403);
    expect((await call('POST', '/room/memory/move', { memory_id: 'nope', from_room: 'a', to_room: 'b' })).status).toBe(
      400,
    );
  });

  it('deletes only the links: memories and documents stay', async () => {
    const before = (await call('GET', '/room/memories?room_id=new-name')).body;
    const res = await call('DELETE', '/room/delete?room_id=new-name');
    expect(res.body).toEqual({
      room_id: 'new-name',
      deleted: true,
      unlinked_memories: before.length,
      unlinked_documents: 1,
    });
    for (const m of before) expect((await call('GET', `/memory?id=${m.id}`)).body.status).toBe('active');
    expect((await call('POST', '/doc/get', { slug: 'rename-doc', namespace: 'team' })).status).toBe(200);
    expect((await call('DELETE', '/room/delete?room_id=new-name')).status).toBe(404);
  });
});

describe('rooms: documents', () => {
  it('stores content above 500 characters as a room document, and at or below as a reference memory', async () => {
    await call('POST', '/room/create', { name: 'library', namespace: 'lib' });
    const big = await call('POST', '/room/document', {
      room_id: 'library',
      content: `Runbook for failover. ${'step '.repeat(120)}`,
      title: 'Failover runbook',
      author: 'sre',
    });
    expect(big.status).toBe(201);
    expect(big.body).toMatchObject({
      stored_as: 'document',
      added: true,
      document: { namespace: 'lib', title: 'Failover runbook' },
    });
    const small = await call('POST', '/room/document', { room_id: 'library', content: 'x'.repeat(500) });
    expect(small.body).toMatchObject({ stored_as: 'memory', memory: { type: 'reference', room_id: 'library' } });
    const list = (await call('POST', '/room/document/list', { room_id: 'library' })).body;
    expect(list.documents.map((d: { slug: string }) => d.slug)).toEqual([big.body.document.slug]);
    const docSummary = (await call('POST', '/room/summary-document', { room_id: 'library' })).body;
    expect(docSummary.stats.memories).toBe(1);
    expect(docSummary.document_stats.documents).toBe(1);
  });

  it('adds and removes references to existing documents of the room’s namespace only', async () => {
    await call('POST', '/doc/create', { slug: 'glossary', content: 'Terms we use', namespace: 'lib' });
    await call('POST', '/doc/create', { slug: 'glossary', content: 'Other tenant terms', namespace: 'elsewhere' });
    const add = await call('PUT', '/room/document/add', { room_id: 'library', slug: 'glossary' });
    expect(add.body).toMatchObject({ room_id: 'library', slug: 'glossary', added: true });
    expect((await call('PUT', '/room/document/add', { room_id: 'library', slug: 'glossary' })).body.added).toBe(false);
    const foreign = await call('PUT', '/room/document/add', {
      room_id: 'library',
      slug: 'glossary',
      namespace: 'elsewhere',
    });
    expect(foreign.status).toBe(404);
    const rooms = (await call('POST', '/doc/room/list', { slug: 'glossary', namespace: 'lib' })).body;
    expect(rooms.rooms.map((r: { room_id: string }) => r.room_id)).toEqual(['library']);
    const removed = await call('DELETE', '/room/document/remove', { room_id: 'library', slug: 'glossary' });
    expect(removed.body).toMatchObject({ removed: true });
    expect((await call('DELETE', '/room/document/remove', { room_id: 'library', slug: 'glossary' })).status).toBe(400);
    expect((await call('POST', '/doc/get', { slug: 'glossary', namespace: 'lib' })).status).toBe(200);
  });
});

describe('rooms: namespace isolation', () => {
  it('lists only the asked namespace’s rooms, both ways', async () => {
    await call('POST', '/room/create', { name: 'room-a', namespace: 'tenant-a' });
    await call('POST', '/room/create', { name: 'room-b', namespace: 'tenant-b' });
    const a = (await call('GET', '/room/list?namespace=tenant-a')).body.map((r: { room_id: string }) => r.room_id);
    const b = (await call('GET', '/room/list?namespace=tenant-b')).body.map((r: { room_id: string }) => r.room_id);
    expect(a).toEqual(['room-a']);
    expect(b).toEqual(['room-b']);
    const ma = await say('room-a', 'Secret plan of tenant A');
    const mb = await say('room-b', 'Secret plan of tenant B');
    expect(ma.body.namespace).toBe('tenant-a');
    expect(mb.body.namespace).toBe('tenant-b');
    expect(ids((await call('POST', '/room/recall', { room_id: 'room-a', query: 'secret plan' })).body)).toEqual([
      ma.body.id,
    ]);
    expect(ids((await call('POST', '/room/recall', { room_id: 'room-b', query: 'secret plan' })).body)).toEqual([
      mb.body.id,
    ]);
    expect((await call('GET', '/room/memories?room_id=room-a&namespace=tenant-b')).body).toEqual([]);
  });
});

describe.skipIf(missing('postgres'))('rooms on Postgres', () => {
  let pg: TestApp;
  beforeAll(async () => {
    pg = await openTestApp({ database: 'postgres', env });
  });
  afterAll(() => pg?.close());

  it('renames a room with its links and recalls within it', async () => {
    const c = (method: 'GET' | 'POST', url: string, body?: unknown) => pg.call(method, url, body, FULL);
    expect((await c('POST', '/room/create', { name: 'pg-room' })).status).toBe(201);
    const m = await c('POST', '/room/remember', {
      room_id: 'pg-room',
      content: 'Postgres rooms keep links',
      author: 'p',
    });
    expect(m.status).toBe(201);
    expect((await c('POST', '/room/rename', { from: 'pg-room', to: 'pg-room-2' })).body).toMatchObject({ members: 1 });
    const found = (await c('POST', '/room/recall', { room_id: 'pg-room-2', query: 'postgres links' })).body;
    expect(found.map((r: { id: string }) => r.id)).toEqual([m.body.id]);
    expect((await c('POST', '/room/stats', { room_id: 'pg-room-2' })).body).toMatchObject({ count: 1, active: 1 });
  });
});

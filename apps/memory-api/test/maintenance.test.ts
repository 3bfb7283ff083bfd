import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { FULL_TOKEN as FULL, openTestApp, READ_TOKEN as READ, type TestApp } from './helpers.ts';
import { DEPLOY, edgesFrom, events, GROCERY, get, makeOld, remember, snapshot } from './lifecycle-helpers.ts';

describe('POST /aging', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(() => t.close());

  it('halves the importance of stale memories by default, deprecates with action deprecate, never pinned', async () => {
    const ns = 'aging';
    const stale = await remember(t, 'old office door code was four digits', { namespace: ns });
    const young = await remember(t, 'parking garage closes at midnight', { namespace: ns });
    const read = await remember(t, 'badge printer sits by reception', { namespace: ns });
    const pinned = await remember(t, 'fire exit is behind the kitchen', { namespace: ns });
    await makeOld(t, stale, 100, 1);
    await makeOld(t, young, 50, 0);
    await makeOld(t, read, 100, 2);
    await makeOld(t, pinned, 400, 0);
    await t.call('POST', '/pin', { id: pinned });

    const before = await snapshot(t);
    const dry = await t.call('POST', '/aging', { namespace: ns, dry_run: true });
    expect(dry.body).toMatchObject({
      action: 'deprioritize',
      dry_run: true,
      older_than_days: 90,
      max_access_count: 1,
      matched: 1,
      ids: [stale],
    });
    expect(await snapshot(t)).toBe(before);

    const res = await t.call('POST', '/aging', { namespace: ns });
    expect(res.body).toMatchObject({ action: 'deprioritize', matched: 1, changed: 1, ids: [stale] });
    expect((await get(t, stale)).importance).toBe(0.25);
    expect((await events(t, stale)).at(-1)).toMatchObject({
      kind: 'deprioritized',
      actor: 'aging',
      evidence: { from: 0.5, to: 0.25 },
    });
    for (const id of [young, read, pinned]) expect((await get(t, id)).importance).toBe(0.5);
    // Repeated runs settle at the floor (0.1) instead of reaching 0.
    await t.call('POST', '/aging', { namespace: ns });
    await t.call('POST', '/aging', { namespace: ns });
    expect((await get(t, stale)).importance).toBe(0.1);
    expect((await t.call('POST', '/aging', { namespace: ns })).body).toMatchObject({ matched: 1, changed: 0 });

    const dep = await t.call('POST', '/aging', { namespace: ns, action: 'deprecate', older_than_days: 30 });
    expect(dep.body.ids.sort()).toEqual([stale, young].sort());
    expect((await get(t, young)).status).toBe('deprecated');
    expect((await get(t, pinned)).status).toBe('active');
    expect((await get(t, read)).status).toBe('active');
    expect((await events(t, young)).at(-1)).toMatchObject({ kind: 'deprecated', evidence: { reason: 'aging' } });
  });

  it('rejects an unknown action or bad numbers with 400', async () => {
    const res = await t.call('POST', '/aging', { action: 'shred' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unknown action "shred"; valid actions: deprioritize, deprecate');
    for (const body of [{ older_than_days: -5 }, { max_access_count: 'few' }, { max_access_count: 1.5 }])
      expect((await t.call('POST', '/aging', body)).status).toBe(400);
  });
});

describe('POST /orphans and POST /prune', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(() => t.close());

  it('counts rooms, memory edges and graph edges as links; prune deprecates old orphans only', async () => {
    const ns = 'orph';
    const sql = t.app.memoryStore.db.sql;
    const lonely = await remember(t, 'the spare key is under the blue flowerpot', { namespace: ns });
    const minor = await remember(t, 'someone left an umbrella in meeting room four', { namespace: ns });
    const roomed = await remember(t, 'standup moves to ten thirty on fridays', { namespace: ns });
    const graphed = await remember(t, 'alice owns the billing service', { namespace: ns });
    const linked = await remember(t, DEPLOY[0] as string, { namespace: ns });
    const linkedToo = await remember(t, DEPLOY[1] as string, { namespace: ns }); // auto-linked to `linked`
    const pinned = await remember(t, 'pinned orphan about the coffee roaster', { namespace: ns });
    const young = await remember(t, 'a fresh orphan written today', { namespace: ns });
    await t.call('POST', '/pin', { id: pinned });
    await t.call('POST', '/memory/importance', { id: minor, importance: 0.2 });
    await sql.query(`INSERT INTO rooms (id, title) VALUES ('team', 'Team')`);
    await sql.query(`INSERT INTO room_members (room_id, memory_id) VALUES ('team', $1::uuid)`, [roomed]);
    const [node] = await sql.query<{ id: string }>(
      `INSERT INTO graph_nodes (id, label, memory_id) VALUES (gen_random_uuid(), 'alice', $1::uuid) RETURNING id::text AS id`,
      [graphed],
    );
    const [entity] = await sql.query<{ id: string }>(
      `INSERT INTO graph_nodes (id, label) VALUES (gen_random_uuid(), 'billing') RETURNING id::text AS id`,
    );
    await sql.query(
      `INSERT INTO graph_edges (id, source_id, target_id) VALUES (gen_random_uuid(), $1::uuid, $2::uuid)`,
      [node?.id, entity?.id],
    );
    expect(await edgesFrom(t, linkedToo, 'similar_to')).toHaveLength(1);
    for (const id of [lonely, minor, roomed, graphed, linked, linkedToo, pinned]) await makeOld(t, id, 120);

    const all = await t.call('POST', '/orphans', { namespace: ns });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.orphans.map((m: { id: string }) => m.id).sort()).toEqual([lonely, minor, young].sort());
    const low = await t.call('POST', '/orphans', { namespace: ns, threshold: 0.3 });
    expect(low.body).toMatchObject({ threshold: 0.3, total: 1, orphans: [{ id: minor }] });
    expect((await t.call('POST', '/orphans', { namespace: ns, limit: 1 })).body.orphans).toHaveLength(1);

    const before = await snapshot(t);
    const dry = await t.call('POST', '/prune', { namespace: ns, dry_run: true });
    expect(dry.body).toMatchObject({ dry_run: true, ttl_days: 90, action: 'deprecate', pruned: 2 });
    expect(dry.body.ids.sort()).toEqual([lonely, minor].sort());
    expect(await snapshot(t)).toBe(before);

    const res = await t.call('POST', '/prune', { namespace: ns });
    expect(res.body.ids.sort()).toEqual([lonely, minor].sort());
    expect((await get(t, lonely)).status).toBe('deprecated');
    expect((await events(t, lonely)).at(-1)).toMatchObject({
      kind: 'deprecated',
      actor: 'prune',
      evidence: { reason: 'orphan' },
    });
    for (const id of [roomed, graphed, linked, linkedToo, pinned, young])
      expect((await get(t, id)).status).toBe('active');
    // ttl_days 0: the young orphan goes too.
    expect((await t.call('POST', '/prune', { namespace: ns, ttl_days: 0 })).body.ids).toEqual([young]);
    expect((await t.call('POST', '/orphans', { namespace: ns })).body.total).toBe(0);
    for (const body of [{ ttl_days: -1 }, { ttl_days: 'long' }, { namespace: '' }])
      expect((await t.call('POST', '/prune', body)).status).toBe(400);
    for (const body of [{ limit: 0 }, { threshold: 2 }])
      expect((await t.call('POST', '/orphans', body)).status).toBe(400);
  });
});

describe('POST /importance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(() => t.close());

  it('scores access, recency, feedback, links and pinning as documented', async () => {
    const ns = 'imp';
    const sql = t.app.memoryStore.db.sql;
    const fresh = await remember(t, 'fresh memory without any signal', { namespace: ns });
    const busy = await remember(t, 'memory read twenty times today', { namespace: ns });
    const liked = await remember(t, 'memory marked helpful twice', { namespace: ns });
    const old = await remember(t, 'memory last used thirty days ago', { namespace: ns });
    const pinned = await remember(t, 'pinned memory someone rated high', { namespace: ns });
    const other = await remember(t, 'memory in another namespace', { namespace: 'imp-other' });
    await sql.query(`UPDATE memories SET access_count = 20, last_accessed_at = now() WHERE id = $1::uuid`, [busy]);
    await t.call('POST', '/memory/feedback', { id: liked, feedback: 'helpful' });
    await t.call('POST', '/memory/feedback', { id: liked, feedback: 'helpful' });
    await makeOld(t, old, 30);
    await t.call('POST', '/pin', { id: pinned });
    await t.call('POST', '/memory/importance', { id: pinned, importance: 0.9 });
    await t.call('POST', '/memory/importance', { id: other, importance: 0.8 });

    const res = await t.call('POST', '/importance', { namespace: ns });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ namespace: ns, considered: 5, updated: 3 });
    // 0.3 base + 0.2 × recency (1 when fresh, 0.5 after 30 days) + 0.25 × access + 0.2 × feedback (+0.2 pinned).
    expect((await get(t, fresh)).importance).toBe(0.5);
    expect((await get(t, busy)).importance).toBe(0.75);
    expect((await get(t, liked)).importance).toBe(0.6);
    expect((await get(t, old)).importance).toBe(0.4);
    // Pinned: computed 0.7, but a pinned memory never loses importance here.
    expect((await get(t, pinned)).importance).toBe(0.9);
    expect((await get(t, other)).importance).toBe(0.8);
    expect((await events(t, busy)).at(-1)).toMatchObject({
      kind: 'importance_recomputed',
      evidence: { from: 0.5, to: 0.75 },
    });
    // Links: one edge adds 0.15 × 1/5.
    await sql.query(
      `INSERT INTO memory_edges (id, source_id, target_id, edge_type) VALUES (gen_random_uuid(), $1::uuid, $2::uuid, 'related')`,
      [fresh, liked],
    );
    await t.call('POST', '/importance', { namespace: ns });
    expect((await get(t, fresh)).importance).toBe(0.53);
    expect((await get(t, liked)).importance).toBe(0.63);
    expect((await t.call('POST', '/importance', { namespace: {} })).status).toBe(400);
  });
});

describe('access', () => {
  it('blocks read-only tokens from every destructive route (403) and lets them list orphans', async () => {
    const t = await openTestApp({ env: { AUTH_TOKENS: FULL, READ_ONLY_TOKENS: READ } });
    try {
      const id = (await t.call('POST', '/remember', { content: 'guarded memory' }, FULL)).body.id;
      await makeOld(t, id, 999);
      const before = await snapshot(t);
      for (const [url, body] of [
        ['/lifecycle/cycle', {}],
        ['/lifecycle/promote', { id }],
        ['/importance', {}],
        ['/prune', { ttl_days: 0 }],
        ['/consolidate', {}],
        ['/consolidate/pair', { id_keep: id, id_remove: id }],
        ['/aging', {}],
      ] as const) {
        const res = await t.call('POST', url, body, READ);
        expect(res.status, url).toBe(403);
        expect(res.body.error).toMatch(/read-only/);
      }
      expect(await snapshot(t)).toBe(before);
      expect((await t.call('POST', '/orphans', {}, READ)).body.total).toBe(1);
      expect((await t.call('GET', '/lifecycle/status', undefined, READ)).body.active).toBe(1);
      expect((await t.call('GET', '/lifecycle/deprecated', undefined, READ)).status).toBe(200);
      const routes = (await t.call('GET', '/routes', undefined, READ)).body;
      expect(routes).toContainEqual(expect.objectContaining({ method: 'POST', path: '/consolidate', tier: 'write' }));
      expect(routes).toContainEqual(expect.objectContaining({ method: 'POST', path: '/orphans', tier: 'read' }));
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(missing('postgres'))('maintenance on Postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({ database: 'postgres' });
  });
  afterAll(() => t?.close());

  it('consolidates, merges a pair by hard delete, ages and recomputes importance', async () => {
    const d: string[] = [];
    for (const c of DEPLOY) d.push(await remember(t, c, { namespace: 'pg' }));
    const g0 = await remember(t, GROCERY[0] as string, { namespace: 'pg' });
    const g1 = await remember(t, GROCERY[1] as string, { namespace: 'pg' });
    const before = await snapshot(t);
    expect((await t.call('POST', '/consolidate', { namespace: 'pg', threshold: 0.8, dry_run: true })).body.merged).toBe(
      3,
    );
    expect(await snapshot(t)).toBe(before);
    const res = await t.call('POST', '/consolidate', { namespace: 'pg', threshold: 0.8 });
    expect(res.body).toMatchObject({ groups: 2, merged: 3 });
    const statuses = await Promise.all(d.map(async (id) => (await get(t, id)).status));
    expect(statuses.filter((s) => s === 'active')).toHaveLength(1);
    const keeperOfGrocery = res.body.merges.find((m: { keeper: string }) => [g0, g1].includes(m.keeper)).keeper;
    const removedGrocery = keeperOfGrocery === g0 ? g1 : g0;
    const hard = await t.call('POST', '/consolidate/pair', {
      id_keep: keeperOfGrocery,
      id_remove: removedGrocery,
      hard_delete: true,
    });
    expect(hard.body.hard_deleted).toBe(true);
    expect((await t.call('GET', `/memory?id=${removedGrocery}`)).status).toBe(404);
    await makeOld(t, keeperOfGrocery, 200);
    expect((await t.call('POST', '/aging', { namespace: 'pg' })).body.ids).toEqual([keeperOfGrocery]);
    expect((await t.call('POST', '/importance', { namespace: 'pg' })).body.considered).toBe(2);
    expect((await t.call('POST', '/verify')).body.mismatch).toBe(false);
  });
});

import { createHash } from 'node:crypto';
import { dot } from '@trove/embeddings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from './helpers.ts';
import { DEPLOY, edgesFrom, events, GROCERY, get, NAS, remember, snapshot } from './lifecycle-helpers.ts';

async function recallIds(t: TestApp, query: string, namespace: string): Promise<string[]> {
  const res = await t.call('POST', '/recall', { query, namespace, strategy: 'vector', limit: 50 });
  return res.body.map((r: { id: string }) => r.id);
}

describe('POST /consolidate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(() => t.close());

  it('merges each group of near-duplicates into one keeper, one namespace at a time; pinned ones keep', async () => {
    const ns = 'cons';
    const d0 = await remember(t, DEPLOY[0] as string, { namespace: ns, tags: ['ci'] });
    const d1 = await remember(t, DEPLOY[1] as string, { namespace: ns, tags: ['deploy'] });
    const d2 = await remember(t, DEPLOY[2] as string, { namespace: ns, tags: ['prod', 'ci'] });
    const g0 = await remember(t, GROCERY[0] as string, { namespace: ns });
    const g1 = await remember(t, GROCERY[1] as string, { namespace: ns });
    const nas = await remember(t, NAS, { namespace: ns });
    const otherNs = await remember(t, DEPLOY[0] as string, { namespace: 'cons-other' });
    await t.call('POST', '/pin', { id: d1 }); // the pinned one keeps, though it is not the oldest
    await t.call('POST', '/memory/importance', { id: g1, importance: 0.9 }); // the more important one keeps
    await t.call('POST', '/memory/importance', { id: d2, importance: 0.7 });

    const before = await snapshot(t);
    const dry = await t.call('POST', '/consolidate', { namespace: ns, threshold: 0.8, dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, namespace: ns, threshold: 0.8, groups: 2, merged: 3 });
    const plan = dry.body.merges.map((m: { keeper: string; removed: { id: string }[] }) => [
      m.keeper,
      m.removed.map((r) => r.id).sort(),
    ]);
    expect(plan).toEqual([
      [d1, [d0, d2].sort()],
      [g1, [g0]],
    ]);
    expect(await snapshot(t)).toBe(before);

    const res = await t.call('POST', '/consolidate', { namespace: ns, threshold: 0.8 });
    expect(res.body).toMatchObject({ dry_run: false, groups: 2, merged: 3, truncated: false });
    expect(res.body.merges).toEqual(dry.body.merges);

    for (const [removed, keeper] of [
      [d0, d1],
      [d2, d1],
      [g0, g1],
    ] as const) {
      expect((await get(t, removed)).status).toBe('deprecated');
      const edges = await edgesFrom(t, removed, 'consolidated_into');
      expect(edges.map((e) => e.targetId)).toEqual([keeper]);
      expect(edges[0]?.weight).toBeGreaterThanOrEqual(0.8);
      expect((await events(t, removed)).at(-1)).toMatchObject({
        kind: 'consolidated',
        actor: 'consolidate',
        evidence: { into: keeper, reason: 'consolidate' },
      });
    }
    const keeper = await get(t, d1);
    expect(keeper).toMatchObject({ status: 'active', pinned: true, tags: ['deploy', 'ci', 'prod'], importance: 0.7 });
    expect((await events(t, d1)).at(-1)).toMatchObject({
      kind: 'consolidated_from',
      evidence: { ids: [d0, d2].sort(), added_tags: ['ci', 'prod'], hard_deleted: false },
    });
    for (const id of [g1, nas, otherNs]) expect((await get(t, id)).status).toBe('active');
    expect(await recallIds(t, DEPLOY[0] as string, ns)).not.toContain(d0);
    expect((await recallIds(t, DEPLOY[0] as string, ns))[0]).toBe(d1);
    expect((await t.call('POST', '/verify')).body.mismatch).toBe(false);

    // Nothing left to merge: a second run is a no-op.
    const again = await t.call('POST', '/consolidate', { namespace: ns, threshold: 0.8 });
    expect(again.body).toMatchObject({ groups: 0, merged: 0, merges: [] });

    // Promoting a merged memory undoes the merge: active again, its consolidated_into edge gone.
    const promoted = await t.call('POST', '/lifecycle/promote', { id: g0 });
    expect(promoted.body.status).toBe('active');
    expect(await edgesFrom(t, g0, 'consolidated_into')).toEqual([]);
    expect((await events(t, g0)).at(-1)).toMatchObject({ kind: 'promoted', evidence: { unmerged_from: [g1] } });
  });

  it('uses the configured threshold by default and rejects a bad one with 400', async () => {
    const ns = 'cons-default';
    await remember(t, DEPLOY[0] as string, { namespace: ns });
    await remember(t, DEPLOY[1] as string, { namespace: ns });
    // 0.91 apart: below the default 0.95, so nothing merges.
    const res = await t.call('POST', '/consolidate', { namespace: ns });
    expect(res.body).toMatchObject({ threshold: 0.95, groups: 0, merged: 0 });
    const before = await snapshot(t);
    for (const body of [
      { threshold: 1.5 },
      { threshold: 0.2 },
      { threshold: 'high' },
      { namespace: 3 },
      { dry_run: 'maybe' },
    ])
      expect((await t.call('POST', '/consolidate', body)).status, JSON.stringify(body)).toBe(400);
    expect(await snapshot(t)).toBe(before);
  });
});

describe('POST /consolidate/pair', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(() => t.close());

  it('deprecates id_remove with an edge and events, or hard-deletes it; id_keep stays', async () => {
    const keep = await remember(t, GROCERY[0] as string, { namespace: 'pair', tags: ['home'] });
    const soft = await remember(t, GROCERY[1] as string, { namespace: 'pair', tags: ['shopping'] });
    const res = await t.call('POST', '/consolidate/pair', { id_keep: keep, id_remove: soft });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kept: { id: keep, status: 'active', tags: ['home', 'shopping'] },
      removed: { id: soft, status: 'deprecated' },
      hard_deleted: false,
    });
    // The cosine of the two texts' vectors (0.861 with hashing), whichever embedder the tests run.
    const [a, b] = await t.app.memoryStore.embedder.embed([GROCERY[0] as string, GROCERY[1] as string]);
    expect(res.body.similarity).toBeCloseTo(dot(a as Float32Array, b as Float32Array), 2);
    expect((await get(t, soft)).status).toBe('deprecated');
    expect((await edgesFrom(t, soft, 'consolidated_into')).map((e) => e.targetId)).toEqual([keep]);
    expect((await events(t, soft)).at(-1)).toMatchObject({ kind: 'consolidated', actor: 'api' });
    expect(await recallIds(t, GROCERY[1] as string, 'pair')).toEqual([keep]);

    // A deprecated copy can still be purged with hard_delete; a live one too.
    const hard = await t.call('POST', '/consolidate/pair', { id_keep: keep, id_remove: soft, hard_delete: true });
    expect(hard.body).toMatchObject({ removed: { id: soft, status: 'deleted' }, hard_deleted: true });
    expect((await t.call('GET', `/memory?id=${soft}`)).status).toBe(404);
    expect(await events(t, soft)).toEqual([]);
    const last = (await events(t, keep)).at(-1);
    expect(last).toMatchObject({
      kind: 'consolidated_from',
      evidence: {
        ids: [soft],
        hard_deleted: true,
        deleted_content_hashes: [
          createHash('sha256')
            .update(GROCERY[1] as string)
            .digest('hex'),
        ],
      },
    });
    expect((await t.call('POST', '/verify')).body).toMatchObject({ mismatch: false, rows: 1 });
  });

  it('answers 400/404/409 for bad pairs and changes nothing', async () => {
    const a = await remember(t, DEPLOY[0] as string, { namespace: 'pair-errors' });
    const b = await remember(t, DEPLOY[1] as string, { namespace: 'pair-errors' });
    const pinned = await remember(t, DEPLOY[2] as string, { namespace: 'pair-errors' });
    const foreign = await remember(t, NAS, { namespace: 'pair-elsewhere' });
    const gone = await remember(t, GROCERY[0] as string, { namespace: 'pair-errors' });
    await t.call('POST', '/pin', { id: pinned });
    await t.call('DELETE', `/forget?id=${gone}`);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const before = await snapshot(t);
    for (const [body, status, message] of [
      [{ id_keep: a, id_remove: a }, 400, /must differ/],
      [{ id_keep: a }, 400, /id_remove/],
      [{ id_keep: 'x', id_remove: b }, 400, /id_keep must be a memory id/],
      [{ id_keep: a, id_remove: b, hard_delete: 'yes' }, 400, /hard_delete/],
      [{ id_keep: unknown, id_remove: b }, 404, /no memory/],
      [{ id_keep: a, id_remove: unknown }, 404, /no memory/],
      [{ id_keep: a, id_remove: foreign }, 400, /namespace/],
      [{ id_keep: a, id_remove: pinned }, 409, /pinned/],
      [{ id_keep: gone, id_remove: b }, 409, /deprecated; promote it first/],
      [{ id_keep: a, id_remove: gone }, 409, /already deprecated/],
    ] as const) {
      const res = await t.call('POST', '/consolidate/pair', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error).toMatch(message);
    }
    expect(await snapshot(t)).toBe(before);
  });
});

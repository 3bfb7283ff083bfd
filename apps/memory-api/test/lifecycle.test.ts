import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { openTestApp, type TestApp } from './helpers.ts';
import { events, makeOld, remember, snapshot } from './lifecycle-helpers.ts';

const DAY_MS = 86_400_000;
const idsOf = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

/** Recall counts its reads after answering; waits until they have landed. */
async function readsSettle(t: TestApp, id: string, reads: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await t.call('GET', `/memory?id=${id}`)).body.access_count >= reads) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`memory ${id} never reached ${reads} reads`);
}

async function deprecatedDaysAgo(t: TestApp, id: string, days: number): Promise<void> {
  await t.app.memoryStore.db.sql.query(
    `UPDATE memories SET deprecated_at = now() - make_interval(days => $2::int) WHERE id = $1::uuid`,
    [id, days],
  );
}

/** Whether a live listing path (recall, search, list, recent) still shows the memory. */
async function visibleAnywhere(t: TestApp, id: string, content: string, namespace: string): Promise<string[]> {
  const seen: string[] = [];
  const recall = await t.call('POST', '/recall', { query: content, namespace, strategy: 'vector', limit: 50 });
  if (recall.body.some((r: { id: string }) => r.id === id)) seen.push('recall');
  const search = await t.call('POST', '/search', { query: content.split(' ')[0], namespace, limit: 100 });
  if (search.body.some((r: { id: string }) => r.id === id)) seen.push('search');
  const list = await t.call('POST', '/list', { namespace, limit: 1000 });
  if (list.body.some((r: { id: string }) => r.id === id)) seen.push('list');
  const recent = await t.call('GET', `/recent?namespace=${namespace}&limit=100`);
  if (recent.body.some((r: { id: string }) => r.id === id)) seen.push('recent');
  return seen;
}

describe('POST /lifecycle/cycle (active -> deprecated, expired deprecated -> deleted)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(() => t.close());

  it('deprecates old, rarely read, unpinned memories; a dry run changes nothing', async () => {
    const stale = await remember(t, 'quarterly budget spreadsheet lives on the finance drive', { namespace: 'cyc' });
    const popular = await remember(t, 'oncall rotation is posted in the ops channel', { namespace: 'cyc' });
    const pinned = await remember(t, 'production root password is in the vault', { namespace: 'cyc' });
    const fresh = await remember(t, 'new laptop arrives next tuesday', { namespace: 'cyc' });
    const elsewhere = await remember(t, 'old wiki page about printer setup', { namespace: 'cyc-other' });
    expect(await visibleAnywhere(t, stale, 'quarterly budget spreadsheet finance', 'cyc')).toEqual([
      'recall',
      'search',
      'list',
      'recent',
    ]);
    // Recall and search just counted a read each (recall after answering): ages and counts are set after them.
    await readsSettle(t, stale, 2);
    await makeOld(t, stale, 200, 1);
    await makeOld(t, popular, 200, 5);
    await makeOld(t, pinned, 400, 0);
    await makeOld(t, elsewhere, 365, 0);
    await t.call('POST', '/memory/pin', { id: pinned, pinned: true });

    const before = await snapshot(t);
    const dry = await t.call('POST', '/lifecycle/cycle', { dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, older_than_days: 180, max_access_count: 1, pruned: null });
    expect(dry.body.deprecated.ids.sort()).toEqual([stale, elsewhere].sort());
    expect(await snapshot(t)).toBe(before);

    const scoped = await t.call('POST', '/lifecycle/cycle', { namespace: 'cyc' });
    expect(scoped.body).toMatchObject({ dry_run: false, namespace: 'cyc', deprecated: { count: 1, ids: [stale] } });
    expect((await t.call('GET', `/memory?id=${stale}`)).body.status).toBe('deprecated');
    for (const id of [popular, pinned, fresh, elsewhere])
      expect((await t.call('GET', `/memory?id=${id}`)).body.status, id).toBe('active');
    const timeline = await events(t, stale);
    expect(timeline.at(-1)).toMatchObject({
      kind: 'deprecated',
      actor: 'lifecycle',
      evidence: { reason: 'lifecycle_cycle', older_than_days: 180, max_access_count: 1 },
    });

    // A tighter rule from the request: popular (5 reads) goes too with max_access_count 5, pinned never.
    const wide = await t.call('POST', '/lifecycle/cycle', {
      namespace: 'cyc',
      older_than_days: 30,
      max_access_count: 5,
    });
    expect(wide.body.deprecated.ids).toEqual([popular]);
    expect((await t.call('GET', `/memory?id=${pinned}`)).body.status).toBe('active');
    expect((await t.call('GET', `/memory?id=${fresh}`)).body.status).toBe('active');
    // Last, as recall and search count reads on what they return.
    expect(await visibleAnywhere(t, stale, 'quarterly budget spreadsheet finance', 'cyc')).toEqual([]);
    expect(await visibleAnywhere(t, popular, 'oncall rotation ops channel', 'cyc')).toEqual([]);

    const status = await t.call('GET', '/lifecycle/status?namespace=cyc');
    expect(status.body).toMatchObject({ namespace: 'cyc', total: 4, active: 2, deprecated: 2, pinned: 1, expired: 0 });
    expect(status.body.config).toMatchObject({
      warm_days: 90,
      cold_days: 180,
      deprecated_ttl_days: 30,
      max_access_count: 1,
      consolidate_threshold: 0.95,
      max_per_call: 10_000,
    });
  });

  it('with prune_expired deletes deprecated memories past the TTL, never pinned ones, and keeps /verify clean', async () => {
    const expired = await remember(t, 'retired staging cluster had twelve nodes', { namespace: 'ttl' });
    const recent = await remember(t, 'retired build agent named hopper', { namespace: 'ttl' });
    const pinned = await remember(t, 'retired but pinned incident postmortem', { namespace: 'ttl' });
    const live = await remember(t, 'current staging cluster has four nodes', { namespace: 'ttl' });
    for (const id of [expired, recent, pinned]) await t.call('DELETE', `/forget?id=${id}`);
    await deprecatedDaysAgo(t, expired, 40);
    await deprecatedDaysAgo(t, recent, 5);
    await deprecatedDaysAgo(t, pinned, 400);
    await t.call('POST', '/pin', { id: pinned });

    const listing = await t.call('GET', '/lifecycle/deprecated?namespace=ttl');
    expect(listing.status).toBe(200);
    expect(listing.body).toMatchObject({ namespace: 'ttl', ttl_days: 30, total: 3 });
    const byId = new Map(listing.body.memories.map((m: { id: string }) => [m.id, m]));
    // Soonest to expire first; pinned ones never expire and come last.
    expect(listing.body.memories.map((m: { id: string }) => m.id)).toEqual([expired, recent, pinned]);
    const recentEntry = byId.get(recent) as { deprecated_at: string; expires_at: string; days_left: number };
    expect(new Date(recentEntry.expires_at).getTime() - new Date(recentEntry.deprecated_at).getTime()).toBe(
      30 * DAY_MS,
    );
    expect(recentEntry.days_left).toBe(25);
    expect(byId.get(expired)).toMatchObject({ days_left: 0, status: 'deprecated' });
    expect(byId.get(pinned)).toMatchObject({ expires_at: null, days_left: null, pinned: true });
    expect((await t.call('GET', '/lifecycle/status?namespace=ttl')).body.expired).toBe(1);

    const before = await snapshot(t);
    const dry = await t.call('POST', '/lifecycle/cycle', { namespace: 'ttl', prune_expired: true, dry_run: true });
    expect(dry.body.pruned).toEqual({ ttl_days: 30, count: 1, ids: [expired] });
    expect(await snapshot(t)).toBe(before);

    const res = await t.call('POST', '/lifecycle/cycle', { namespace: 'ttl', prune_expired: true });
    expect(res.body.pruned).toEqual({ ttl_days: 30, count: 1, ids: [expired] });
    expect((await t.call('GET', `/memory?id=${expired}`)).status).toBe(404);
    expect(await events(t, expired)).toEqual([]);
    for (const id of [recent, pinned]) expect((await t.call('GET', `/memory?id=${id}`)).body.status).toBe('deprecated');
    expect((await t.call('GET', `/memory?id=${live}`)).body.status).toBe('active');
    expect((await t.call('POST', '/verify')).body.mismatch).toBe(false);
    // ttl_days from the request overrides the configured TTL.
    const shorter = await t.call('POST', '/lifecycle/cycle', { namespace: 'ttl', prune_expired: true, ttl_days: 1 });
    expect(shorter.body.pruned.ids).toEqual([recent]);
  });

  it('rejects malformed requests with 400 and changes nothing', async () => {
    const id = await remember(t, 'a memory that must survive bad requests', { namespace: 'bad' });
    await makeOld(t, id, 500);
    const before = await snapshot(t);
    for (const body of [
      { older_than_days: -1 },
      { older_than_days: 2.5 },
      { older_than_days: 'old' },
      { max_access_count: -3 },
      { namespace: '' },
      { namespace: 5 },
      { dry_run: 'yes' },
      { prune_expired: 'please' },
      { ttl_days: 99_999_999 },
    ]) {
      const res = await t.call('POST', '/lifecycle/cycle', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await t.call('GET', '/lifecycle/deprecated?limit=0')).status).toBe(400);
    expect((await t.call('GET', '/lifecycle/deprecated?offset=-1')).status).toBe(400);
    // Past Postgres's bigint (found by the route fuzzer: it answered 500).
    const deep = await t.call('GET', '/lifecycle/deprecated?offset=9223372036854776000');
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatch(/offset/);
    expect(await snapshot(t)).toBe(before);
  });
});

describe('POST /lifecycle/promote (deprecated -> active)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp();
  });
  afterAll(() => t.close());

  it('restores a deprecated memory to every listing; 409 when active, 404 unknown, 400 malformed', async () => {
    const id = await remember(t, 'kitchen espresso machine descaling schedule', { namespace: 'promo' });
    await t.call('DELETE', `/forget?id=${id}`);
    expect(await visibleAnywhere(t, id, 'kitchen espresso machine descaling', 'promo')).toEqual([]);

    const res = await t.call('POST', '/lifecycle/promote', { id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'active', deprecated_at: null });
    expect(await visibleAnywhere(t, id, 'kitchen espresso machine descaling', 'promo')).toEqual([
      'recall',
      'search',
      'list',
      'recent',
    ]);
    expect((await events(t, id)).map((e) => [e.kind, e.actor])).toEqual([
      ['created', 'user'],
      ['deprecated', 'api'],
      ['promoted', 'api'],
    ]);

    const again = await t.call('POST', '/lifecycle/promote', { id });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already active/);
    const unknown = await t.call('POST', '/lifecycle/promote', { id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/no memory/);
    expect((await t.call('POST', '/lifecycle/promote', { id: 'not-a-uuid' })).status).toBe(400);
    expect((await t.call('POST', '/lifecycle/promote', {})).status).toBe(400);
    expect((await events(t, id)).length).toBe(3);
  });

  it('undoes a namespace delete with strategy deprecate, one memory at a time (restorable, never deleted)', async () => {
    // refuse / merge / deprecate themselves are covered by admin.test.ts; this checks the way back.
    const a = await remember(t, 'team offsite is in lisbon this year', { namespace: 'doomed' });
    const b = await remember(t, 'team offsite budget is capped per person', { namespace: 'doomed' });
    expect((await t.call('POST', '/namespaces/delete', { name: 'doomed' })).status).toBe(409);
    const dep = await t.call('POST', '/namespaces/delete', { name: 'doomed', strategy: 'deprecate' });
    expect(dep.body).toEqual({ name: 'doomed', strategy: 'deprecate', deprecated: 2 });
    const listed = await t.call('GET', '/lifecycle/deprecated?namespace=doomed');
    expect(idsOf(listed.body.memories)).toEqual([a, b].sort());
    expect((await t.call('POST', '/lifecycle/promote', { id: a })).body.status).toBe('active');
    expect(await visibleAnywhere(t, a, 'team offsite lisbon', 'doomed')).toEqual([
      'recall',
      'search',
      'list',
      'recent',
    ]);
    expect(await visibleAnywhere(t, b, 'team offsite budget', 'doomed')).toEqual([]);
    expect((await t.call('GET', '/lifecycle/status?namespace=doomed')).body).toMatchObject({
      active: 1,
      deprecated: 1,
    });
  });
});

describe.skipIf(missing('postgres'))('lifecycle on Postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({ database: 'postgres' });
  });
  afterAll(() => t?.close());

  it('cycles, lists with TTL, prunes and promotes the same way', async () => {
    const old = await remember(t, 'legacy ftp server address for uploads', { namespace: 'pg' });
    const gone = await remember(t, 'decommissioned mail relay hostname', { namespace: 'pg' });
    const keep = await remember(t, 'current sftp server address for uploads', { namespace: 'pg' });
    await makeOld(t, old, 365);
    await t.call('DELETE', `/forget?id=${gone}`);
    await deprecatedDaysAgo(t, gone, 31);
    const before = await snapshot(t);
    expect((await t.call('POST', '/lifecycle/cycle', { dry_run: true, prune_expired: true })).body).toMatchObject({
      deprecated: { ids: [old] },
      pruned: { ids: [gone] },
    });
    expect(await snapshot(t)).toBe(before);
    const res = await t.call('POST', '/lifecycle/cycle', { prune_expired: true });
    expect(res.body).toMatchObject({ deprecated: { count: 1, ids: [old] }, pruned: { count: 1, ids: [gone] } });
    expect((await t.call('GET', `/memory?id=${gone}`)).status).toBe(404);
    const listing = await t.call('GET', '/lifecycle/deprecated');
    expect(listing.body.memories.map((m: { id: string; days_left: number }) => [m.id, m.days_left])).toEqual([
      [old, 30],
    ]);
    expect((await t.call('POST', '/lifecycle/promote', { id: old })).body.status).toBe('active');
    expect((await t.call('GET', '/lifecycle/status')).body).toMatchObject({ total: 2, active: 2, deprecated: 0 });
    expect((await t.call('GET', `/memory?id=${keep}`)).body.status).toBe('active');
    expect((await t.call('POST', '/verify')).body.mismatch).toBe(false);
  });
});

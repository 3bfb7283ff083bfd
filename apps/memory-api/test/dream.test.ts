import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { appWithTokens, FULL_TOKEN, openTestApp, READ_TOKEN, type TestApp } from './helpers.ts';

const { app, call, total, sql } = appWithTokens();

/** Memories whose insights a dream should find, in namespace `ns`. */
async function seedDreamCorpus(target: TestApp, ns: string, token?: string) {
  const remember = async (content: string) =>
    (await target.call('POST', '/remember', { content, namespace: ns }, token)).body.id as string;
  return {
    dupes: [
      await remember('The staging server restarts every night at two'),
      await remember('The staging server restarts every night at two o clock sharp'),
    ],
    conflict: [
      await remember('The deploy pipeline takes 12 minutes end to end'),
      await remember('The deploy pipeline takes 20 minutes end to end'),
    ],
    grace: [
      await remember('Grace Hopper reviews the compiler changes'),
      await remember('Budget questions go to Grace Hopper'),
      await remember('Ask Grace Hopper before touching the linker'),
    ],
  };
}
// The hashing test embedder scores shared words, not meaning; these bounds suit it.
const DREAM_BOUNDS = { duplicate_threshold: 0.8, contradiction_threshold: 0.7 };

describe('POST /dream', () => {
  let seeded: Awaited<ReturnType<typeof seedDreamCorpus>>;
  beforeAll(async () => {
    seeded = await seedDreamCorpus(app(), 'dream', FULL_TOKEN);
    await call('POST', '/remember', { content: 'Grace Hopper likes the staging server', namespace: 'dream-other' });
  });

  const kinds = (insights: { kind: string; evidence_ids: string[] }[]) =>
    Object.fromEntries(insights.map((i) => [i.kind, [...i.evidence_ids].sort()]));

  it('dry run reports the insights it would write and writes nothing', async () => {
    const before = await total();
    const res = await call('POST', '/dream', { namespace: 'dream', dry_run: true, ...DREAM_BOUNDS });
    expect(res.status).toBe(200);
    expect(res.body.dry_run).toBe(true);
    expect(res.body.analysed).toBe(7);
    expect(kinds(res.body.insights)).toEqual({
      duplicate_cluster: [...seeded.dupes].sort(),
      contradiction: [...seeded.conflict].sort(),
      recurring_entity: [...seeded.grace].sort(),
    });
    expect(
      res.body.insights.every((i: { status: string; id: null }) => i.status === 'would_create' && i.id === null),
    ).toBe(true);
    expect(res.body.counts.would_create).toBe(3);
    expect(await total()).toBe(before);
  });

  it('writes each insight once, as an insight memory with its evidence, derived_from edges and an event', async () => {
    const res = await call('POST', '/dream', { namespace: 'dream', ...DREAM_BOUNDS });
    expect(res.body.counts).toMatchObject({ created: 3, unchanged: 0 });
    const contradiction = res.body.insights.find((i: { kind: string }) => i.kind === 'contradiction');
    // Told older first, whatever the ids: the 12-minute memory was stored before the 20-minute one.
    expect(contradiction.details).toMatchObject({
      reason: 'different numbers: 12 vs 20',
      older: seeded.conflict[0],
      newer: seeded.conflict[1],
    });
    const insight = (await call('GET', `/memory?id=${contradiction.id}`)).body;
    expect(insight).toMatchObject({
      type: 'insight',
      namespace: 'dream',
      source_type: 'dream',
      author_type: 'system',
      tags: ['dream', 'contradiction'],
      metadata: { dream: { kind: 'contradiction', evidence_ids: [...seeded.conflict].sort() } },
    });
    expect(insight.content).toContain('12 minutes');
    expect(insight.content).toContain('20 minutes');
    const edges = await sql<{ target: string }>(
      `SELECT target_id::text AS target FROM memory_edges WHERE source_id = $1::uuid AND edge_type = 'derived_from' ORDER BY 1`,
      contradiction.id,
    );
    expect(edges.map((e) => e.target)).toEqual([...seeded.conflict].sort());
    const backlinks = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM memory_backlinks WHERE referrer_id = $1::uuid AND edge_type = 'derived_from'`,
      contradiction.id,
    );
    expect(backlinks[0]?.n).toBe(2);
    const [event] = await sql<{ kind: string; actor: string; evidence: { derived_from: string[] } }>(
      `SELECT kind, actor, evidence FROM memory_events WHERE memory_id = $1::uuid ORDER BY id LIMIT 1`,
      contradiction.id,
    );
    expect(event).toMatchObject({ kind: 'created', actor: 'system' });
    expect([...(event?.evidence.derived_from ?? [])].sort()).toEqual([...seeded.conflict].sort());

    // Insights never cite another namespace (dream-other also mentions Grace Hopper).
    const recurring = res.body.insights.find((i: { kind: string }) => i.kind === 'recurring_entity');
    expect(recurring.details).toEqual({ entity: 'Grace Hopper', mentions: 3 });
  });

  it('is idempotent: a second run changes nothing; a dismissed insight is not brought back', async () => {
    const before = await total();
    const again = await call('POST', '/dream', { namespace: 'dream', ...DREAM_BOUNDS });
    expect(again.body.counts).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(await total()).toBe(before);

    const dupInsight = again.body.insights.find((i: { kind: string }) => i.kind === 'duplicate_cluster');
    expect((await call('DELETE', `/forget?id=${dupInsight.id}`)).status).toBe(200);
    const third = await call('POST', '/dream', { namespace: 'dream', ...DREAM_BOUNDS });
    expect(third.body.counts).toMatchObject({ created: 0, dismissed: 1, unchanged: 2 });
    expect(await total()).toBe(before);
  });

  it('updates a recurring-entity insight when more memories mention the entity', async () => {
    const fourth = (
      await call('POST', '/remember', { content: 'Grace Hopper owns the release calendar', namespace: 'dream' })
    ).body.id;
    const res = await call('POST', '/dream', { namespace: 'dream', ...DREAM_BOUNDS });
    const recurring = res.body.insights.find((i: { kind: string }) => i.kind === 'recurring_entity');
    expect(recurring.status).toBe('updated');
    expect(recurring.evidence_ids).toContain(fourth);
    const stored = (await call('GET', `/memory?id=${recurring.id}`)).body;
    expect(stored.content).toBe('"Grace Hopper" is a recurring subject: 4 memories mention it.');
    const timeline = await sql<{ kind: string }>(
      `SELECT kind FROM memory_events WHERE memory_id = $1::uuid ORDER BY id`,
      recurring.id,
    );
    expect(timeline.map((e) => e.kind)).toEqual(['created', 'updated']);
  });

  it('checks its input and needs a full token', async () => {
    for (const body of [{ dry_run: 'soon' }, { duplicate_threshold: 2 }, { min_mentions: 0 }, { namespace: 5 }]) {
      const res = await call('POST', '/dream', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await call('POST', '/dream', { dry_run: true }, READ_TOKEN)).status).toBe(403);
  });
});

describe.skipIf(missing('postgres'))('dream on Postgres', () => {
  let pg: TestApp;
  beforeAll(async () => {
    pg = await openTestApp({ database: 'postgres' });
  });
  afterAll(() => pg?.close());

  it('dreams each insight once', async () => {
    const seeded = await seedDreamCorpus(pg, 'pg-dream');
    const first = await pg.call('POST', '/dream', { namespace: 'pg-dream', ...DREAM_BOUNDS });
    expect(first.body.counts).toMatchObject({ created: 3 });
    const contradiction = first.body.insights.find((i: { kind: string }) => i.kind === 'contradiction');
    expect([...contradiction.evidence_ids].sort()).toEqual([...seeded.conflict].sort());
    const second = await pg.call('POST', '/dream', { namespace: 'pg-dream', ...DREAM_BOUNDS });
    expect(second.body.counts).toMatchObject({ created: 0, unchanged: 3 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARM_WEIGHTS } from '../src/recall/recall.ts';
import { RERANK_WEIGHTS, SCORE } from '../src/recall/rerank.ts';
import { openTestApp, type TestApp } from './helpers.ts';

const STRATEGIES = ['fusion', 'vector', 'fts5', 'hybrid', 'graph'] as const;
let t: TestApp;
const ids: Record<string, string> = {};

const remember = async (key: string, body: Record<string, unknown>) => {
  const res = await t.call('POST', '/remember', body);
  expect(res.status, key).toBe(201);
  ids[key] = res.body.id;
  return res.body;
};
const recall = (body: Record<string, unknown>) => t.call('POST', '/recall', body);
const idsOf = (body: { id: string }[]) => body.map((r) => r.id);

beforeAll(async () => {
  t = await openTestApp({ env: { LINK_THRESHOLD: '0.3' } });
  await remember('alphaKafka', {
    content: 'kafka brokers run on three nodes in zone a',
    namespace: 'alpha',
    tags: ['kafka', 'infra'],
    category: 'infra',
    entity: 'kafka',
  });
  await remember('betaKafka', {
    content: 'kafka brokers run on five nodes in zone b',
    namespace: 'beta',
    tags: ['kafka'],
    category: 'infra',
    entity: 'kafka',
  });
  await remember('alphaLunch', {
    content: 'lunch orders close at eleven thirty',
    namespace: 'alpha',
    tags: ['office'],
    category: 'office',
  });
  await remember('alphaKafkaTopic', {
    content: 'kafka topic retention is seven days',
    namespace: 'alpha',
    tags: ['kafka'],
    importance: 0.9,
  });
});
afterAll(() => t.close());

describe('POST /recall strategies and namespace isolation', () => {
  it.each(STRATEGIES)('%s finds by meaning or keyword and never crosses namespaces, both ways', async (strategy) => {
    const a = await recall({ query: 'kafka brokers nodes zone', namespace: 'alpha', strategy });
    expect(a.status).toBe(200);
    expect(idsOf(a.body)).toContain(ids.alphaKafka);
    expect(idsOf(a.body)).not.toContain(ids.betaKafka);
    const b = await recall({ query: 'kafka brokers nodes zone', namespace: 'beta', strategy });
    expect(idsOf(b.body)).toEqual([ids.betaKafka]);
    // No namespace: every namespace is searched.
    const all = await recall({ query: 'kafka brokers nodes zone', strategy });
    expect(idsOf(all.body)).toEqual(expect.arrayContaining([ids.alphaKafka, ids.betaKafka]));
    for (const r of all.body) {
      expect(r.score).toBeGreaterThan(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
  });

  it('uses fusion by default and rejects an unknown strategy or search_type with 400', async () => {
    const res = await recall({ query: 'kafka', explain: true });
    expect(res.body[0].explain.strategy).toBe('fusion');
    const bad = await recall({ query: 'kafka', strategy: 'bm25' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('unknown strategy "bm25"; valid strategies: fusion, vector, fts5, hybrid, graph');
    expect((await recall({ query: 'kafka', search_type: 'files' })).status).toBe(400);
    expect((await recall({ query: 'kafka', search_type: 'doc' })).body).toEqual([]);
  });

  it('filters on tags, category, entity and limit', async () => {
    const tagged = await recall({ query: 'kafka', tags: ['kafka', 'infra'] });
    expect(idsOf(tagged.body).sort()).toEqual([ids.alphaKafka].sort());
    const office = await recall({ query: 'lunch orders kafka', category: 'office' });
    expect(idsOf(office.body)).toEqual([ids.alphaLunch]);
    const entity = await recall({ query: 'kafka brokers', entity: 'kafka' });
    expect(idsOf(entity.body).sort()).toEqual([ids.alphaKafka, ids.betaKafka].sort());
    expect((await recall({ query: 'kafka', limit: 1 })).body).toHaveLength(1);
    expect((await recall({ query: 'kafka', limit: 0 })).status).toBe(400);
    expect((await recall({ query: 'kafka', limit: 101 })).status).toBe(400);
  });
});

describe('scores, explain, thresholds', () => {
  it('fuses absolute arm strengths and explains every arm and signal the score came from', async () => {
    const res = await recall({
      query: 'kafka brokers run on three nodes in zone a',
      namespace: 'alpha',
      explain: true,
    });
    const top = res.body[0];
    expect(top.id).toBe(ids.alphaKafka);
    const { arms, fused, boosts, score, soft } = top.explain;
    expect(Object.keys(arms).sort()).toEqual(['fts5', 'vector']);
    expect(arms.vector.rank).toBe(1);
    expect(arms.fts5.rank).toBe(1);
    // Each arm's raw signal and its strength on an absolute 0..1 scale; the fused score is the
    // weighted sum of strengths over the weights' sum.
    const total = ARM_WEIGHTS.vector + ARM_WEIGHTS.fts5;
    for (const name of ['vector', 'fts5'] as const) {
      expect(arms[name].strength).toBeGreaterThan(0);
      expect(arms[name].strength).toBeLessThanOrEqual(1);
      expect(arms[name].contribution).toBeCloseTo((ARM_WEIGHTS[name] * arms[name].strength) / total, 5);
    }
    expect(fused).toBeCloseTo(arms.vector.contribution + arms.fts5.contribution, 5);
    // Every word of the question is in it: BM25 near its ceiling (a memory of average length
    // holding every word; this one is longer than the others), and the words met one for one.
    expect(arms.fts5.strength).toBeGreaterThan(0.9);
    expect(soft).toBe(1);
    // No conversation, speaker or date here: the evidence is fused + soft match, boosted, mapped
    // to 0..1 without a cap so that evidence SCORE.fusion scores 0.5.
    const { context, speaker, time } = top.explain;
    expect([context, speaker, time]).toEqual([0, 0, null]);
    const evidence = (fused + RERANK_WEIGHTS.soft * soft) * boosts.factor;
    expect(score).toBeCloseTo(1 - 2 ** (-evidence / SCORE.fusion), 5);
    expect(res.body[1].score).toBeLessThan(score);
  });

  it('scores rise with the strength of the match, comparably across queries, so strict filters what is unrelated', async () => {
    const best = async (query: string, namespace: string) => (await recall({ query, namespace })).body[0]?.score ?? 0;
    // The same memory, met by more of the question's words, scores higher.
    const full = await best('kafka topic retention days', 'alpha');
    const partial = await best('kafka topic', 'alpha');
    expect(full).toBeGreaterThan(0.5);
    expect(partial).toBeLessThan(full);
    // A question about things the namespace has never heard of: its top hit scores low, and
    // strict answers nothing, while the question that matches keeps its answer.
    const unrelated = 'what is the recipe for grandmother chocolate cake';
    expect(await best(unrelated, 'alpha')).toBeLessThan(0.5);
    for (const strategy of STRATEGIES) {
      const none = await recall({ query: unrelated, namespace: 'alpha', strategy, strict: true });
      expect(none.body, strategy).toEqual([]);
    }
    const kept = await recall({ query: 'kafka topic retention days', namespace: 'alpha', strict: true });
    expect(idsOf(kept.body)).toContain(ids.alphaKafkaTopic);
  });

  it('400s explain with search_type all/doc, at, before or after', async () => {
    for (const extra of [
      { search_type: 'all' },
      { search_type: 'doc' },
      { at: '2026-01-01T00:00:00Z' },
      { before: '2030-01-01T00:00:00Z' },
      { after: '2020-01-01T00:00:00Z' },
    ]) {
      const res = await recall({ query: 'kafka', explain: true, ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error).toMatch(/explain/);
    }
    expect((await recall({ query: 'kafka', explain: true, search_type: 'memory' })).status).toBe(200);
  });

  it('applies min_score, and strict means 0.5 when min_score is not set', async () => {
    const all = await recall({ query: 'kafka retention days', namespace: 'alpha', strategy: 'graph', limit: 50 });
    const strict = await recall({
      query: 'kafka retention days',
      namespace: 'alpha',
      strategy: 'graph',
      strict: true,
      limit: 50,
    });
    const half = await recall({
      query: 'kafka retention days',
      namespace: 'alpha',
      strategy: 'graph',
      min_score: 0.5,
      limit: 50,
    });
    expect(strict.body.length).toBeGreaterThan(0);
    expect(idsOf(strict.body)).toEqual(idsOf(half.body));
    expect(idsOf(strict.body)).toEqual(idsOf(all.body.filter((r: { score: number }) => r.score >= 0.5)));
    // An explicit min_score wins over strict.
    expect(
      (await recall({ query: 'kafka retention days', namespace: 'alpha', strict: true, min_score: 0 })).body.length,
    ).toBe(all.body.length);
    const high = await recall({ query: 'kafka retention days', namespace: 'alpha', min_score: 0.99, strict: true });
    for (const r of high.body) expect(r.score).toBeGreaterThanOrEqual(0.99);
    expect((await recall({ query: 'kafka', min_score: 1.5 })).status).toBe(400);
  });

  it('counts an access only for the results returned', async () => {
    const before = (await t.call('GET', `/memory?id=${ids.alphaLunch}`)).body.access_count;
    await recall({ query: 'kafka brokers', namespace: 'beta' });
    expect((await t.call('GET', `/memory?id=${ids.alphaLunch}`)).body.access_count).toBe(before);
    await recall({ query: 'lunch orders', category: 'office' });
    expect((await t.call('GET', `/memory?id=${ids.alphaLunch}`)).body.access_count).toBe(before + 1);
  });
});

describe('pack and enrich', () => {
  it('packs in rank order within budget_chars, reporting excluded and over-budget results', async () => {
    const ranked = (await recall({ query: 'kafka', namespace: 'alpha' })).body;
    expect(ranked.length).toBeGreaterThanOrEqual(2);
    const [first, second] = ranked;
    const budget = second.content.length + 5;
    const pack = await recall({
      query: 'kafka',
      namespace: 'alpha',
      pack: true,
      budget_chars: budget,
      exclude_ids: [first.id],
    });
    expect(pack.status).toBe(200);
    expect(pack.body.budget_chars).toBe(budget);
    expect(pack.body.selected.map((r: { id: string }) => r.id)).toEqual([second.id]);
    expect(pack.body.budget_used).toBe(second.content.length);
    expect(pack.body.skipped[0]).toEqual({ id: first.id, reason: 'excluded' });
    for (const s of pack.body.skipped.slice(1)) expect(s.reason).toBe('budget');
    const dflt = await recall({ query: 'kafka', pack: true });
    expect(dflt.body.budget_chars).toBe(4000);
    expect((await recall({ query: 'kafka', pack: true, exclude_ids: ['x'] })).status).toBe(400);
    expect((await recall({ query: 'kafka', pack: true, budget_chars: -1 })).status).toBe(400);
  });

  it('a pack is strict unless told otherwise: unrelated memories stay out of a prompt', async () => {
    // One common word of the namespace among words it has never seen: found, but weakly.
    const unrelated = 'which kafka recipe does grandmother use for chocolate cake';
    const pack = await recall({ query: unrelated, namespace: 'alpha', pack: true });
    expect(pack.body.selected).toEqual([]);
    const loose = await recall({ query: unrelated, namespace: 'alpha', pack: true, strict: false });
    expect(loose.body.selected.length).toBeGreaterThan(0);
    const related = await recall({ query: 'kafka topic retention days', namespace: 'alpha', pack: true });
    expect(related.body.selected.map((r: { id: string }) => r.id)).toContain(ids.alphaKafkaTopic);
  });

  it('enrich adds linked_doc_slugs (empty until documents exist)', async () => {
    const res = await recall({ query: 'kafka', enrich: true });
    expect(res.body[0].linked_doc_slugs).toEqual([]);
  });
});

describe('time travel and deprecation', () => {
  it('at sees a memory deprecated later; before/after bound creation time; deprecated never shows now', async () => {
    const m = await remember('travel', {
      content: 'the office wifi password is printed in the kitchen',
      namespace: 'travel',
    });
    const createdAt = new Date(m.created_at).getTime();
    await new Promise((r) => setTimeout(r, 15));
    const between = new Date(createdAt + 5).toISOString();
    await t.call('DELETE', `/forget?id=${m.id}`);
    for (const strategy of STRATEGIES) {
      const now = await recall({ query: 'office wifi password kitchen', namespace: 'travel', strategy });
      expect(now.body, strategy).toEqual([]);
      const then = await recall({ query: 'office wifi password kitchen', namespace: 'travel', strategy, at: between });
      expect(idsOf(then.body), strategy).toEqual([m.id]);
      const beforeBirth = await recall({
        query: 'office wifi password kitchen',
        namespace: 'travel',
        strategy,
        at: new Date(createdAt - 1000).toISOString(),
      });
      expect(beforeBirth.body, strategy).toEqual([]);
    }
    const listed = await t.call('POST', '/list', { namespace: 'travel', at: between, include_meta: true });
    expect(idsOf(listed.body)).toEqual([m.id]);
    expect((await recall({ query: 'kafka', after: '2099-01-01T00:00:00Z' })).body).toEqual([]);
    expect((await recall({ query: 'kafka', before: '2000-01-01T00:00:00Z' })).body).toEqual([]);
    expect((await recall({ query: 'kafka', after: '2000-01-01T00:00:00Z' })).body.length).toBeGreaterThan(0);
    expect((await recall({ query: 'kafka', at: 'last tuesday' })).status).toBe(400);
  });
});

describe('full-text arm (fts5)', () => {
  const fts = (query: string, limit = 10) => recall({ query, namespace: 'words', strategy: 'fts5', limit });

  it('ranks memories holding two query words first, and falls back to one-word matches', async () => {
    const two = await remember('bothWords', { content: 'the walrus sings opera at dawn', namespace: 'words' });
    const one: string[] = [];
    for (const animal of ['walrus', 'pelican', 'otter']) {
      one.push((await remember(`only ${animal}`, { content: `a ${animal} naps in the sun`, namespace: 'words' })).id);
    }
    const res = await fts('walrus opera tickets');
    expect(res.status).toBe(200);
    expect(idsOf(res.body)[0]).toBe(two.id);
    // Fewer than the arm's candidates hold two words, so one-word matches come after them...
    expect(idsOf(res.body)).toContain(one[0]);
    // ...and rows with none of the words never do.
    expect(idsOf(res.body)).not.toContain(one[1]);
    expect(idsOf((await fts('pelican')).body)).toEqual([one[1]]);
  });

  it('finds the memories holding two query words when every word is common, whatever words no memory holds', async () => {
    // More memories hold each word than the arm scores per query (1,500 at most).
    const lines = (text: string) =>
      Array.from({ length: 1600 }, (_, i) => JSON.stringify({ content: `${text} ${i}`, namespace: 'common' }));
    const imported = await t.call('POST', '/import', {
      content: [...lines('harbour log entry'), ...lines('ferry timetable page')].join('\n'),
    });
    expect(imported.body.imported).toBe(3200);
    const both = await remember('harbourFerry', { content: 'the harbour ferry leaves at noon', namespace: 'common' });
    for (const query of ['harbour ferry', 'harbour ferry zeppelin']) {
      const res = await recall({ query, namespace: 'common', strategy: 'fts5', limit: 5 });
      expect(res.status, query).toBe(200);
      expect(idsOf(res.body)[0], query).toBe(both.id);
      expect(res.body, query).toHaveLength(5);
    }
  });

  it('reads query syntax characters as plain text: quotes, backslashes, operators', async () => {
    const m = await remember('odd', {
      content: "O'Brien's backup runs from C:\\data\\nightly with flags -x|y & !z",
      namespace: 'words',
    });
    for (const query of [
      "O'Brien's backup",
      'C:\\data\\nightly',
      'backup & !z | (runs',
      "it's ''quoted'' \\\\ :* <->",
    ]) {
      const res = await fts(query);
      expect(res.status, query).toBe(200);
      if (query !== "it's ''quoted'' \\\\ :* <->") expect(idsOf(res.body), query).toContain(m.id);
    }
    // Only stop words: nothing to search for, and no error.
    expect(await fts('the and of it')).toEqual({ status: 200, body: [] });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordOverlap } from '../src/memories/word-overlap.ts';
import { openTestApp, sharedGlove, type TestApp } from './helpers.ts';

// The real GloVe embedder with the default thresholds: where meaning, not shared words, matters.
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ env: { EMBEDDER: 'glove' }, embedder: await sharedGlove() });
}, 120_000);
afterAll(() => t.close());

const remember = (body: Record<string, unknown>) => t.call('POST', '/remember', body);

describe('with GloVe embeddings', () => {
  it('recalls by meaning when the question shares no keyword with the memory', async () => {
    const dog = await remember({ content: 'Sam adopted a golden retriever puppy in March', namespace: 'sem' });
    await remember({ content: 'Our production database is PostgreSQL 15 on two replicas', namespace: 'sem' });
    await remember({ content: 'The quarterly report is due at the end of June', namespace: 'sem' });
    expect(
      (await t.call('POST', '/recall', { query: 'what pet dog does he own', namespace: 'sem', strategy: 'fts5' })).body,
    ).toEqual([]);
    const res = await t.call('POST', '/recall', {
      query: 'what pet dog does he own',
      namespace: 'sem',
      strategy: 'vector',
    });
    expect(res.body[0].id).toBe(dog.body.id);
    const fused = await t.call('POST', '/recall', { query: 'what pet dog does he own', namespace: 'sem' });
    expect(fused.body[0].id).toBe(dog.body.id);
  });

  it('treats a changed fact as new (not a duplicate) and a re-worded copy as a duplicate', async () => {
    expect(wordOverlap('a b c d', 'a b c e')).toBeCloseTo(0.6);
    const blue = await remember({ content: "The user's favourite colour is blue", namespace: 'prefs' });
    const green = await remember({ content: "The user's favourite colour is green", namespace: 'prefs' });
    expect(green.status).toBe(201);
    const copy = await remember({ content: "the user's favourite colour is blue!", namespace: 'prefs' });
    expect(copy.status).toBe(200);
    expect(copy.body).toMatchObject({ id: blue.body.id, duplicate: true });
  });

  it('supersedes the memory a correction contradicts, at the default bound', async () => {
    const old = await remember({ content: 'The weekly team standup is at 9:30 in room Orion', namespace: 'cal' });
    await remember({ content: 'Expense reports are approved by the finance lead', namespace: 'cal' });
    const next = await remember({
      content: 'The weekly team standup moved to 10:00 in room Orion',
      namespace: 'cal',
      detect_contradiction: true,
    });
    expect(next.body.superseded?.id).toBe(old.body.id);
    const recalled = await t.call('POST', '/recall', { query: 'when is the standup', namespace: 'cal' });
    expect(recalled.body.map((r: { id: string }) => r.id)).toContain(next.body.id);
    expect(recalled.body.map((r: { id: string }) => r.id)).not.toContain(old.body.id);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RERANK_WEIGHTS } from '../src/recall/rerank.ts';
import { openTestApp, type TestApp } from './helpers.ts';

// A conversation stored as the LoCoMo benchmark stores one: each turn "Speaker: text", its
// session's time in metadata as people write it. Reranking reads who speaks, when, and which
// turns are neighbours in the same session.
const SESSIONS = [
  {
    time: '1:56 pm on 8 May, 2023',
    turns: [
      'Caroline: Where did you spend the long weekend?',
      'Melanie: Up in the mountains near Denver with the whole family.',
      'Caroline: That sounds lovely!',
      'Melanie: The cabin had a wood stove and no phone signal at all.',
      'Caroline: I painted a lighthouse at dawn for my art class.',
      'Melanie: I cannot wait to see it.',
    ],
  },
  {
    time: '10:04 am on 20 June, 2023',
    turns: [
      'Melanie: I painted a sunflower field this week.',
      'Caroline: The colours must be gorgeous.',
      'Melanie: My kids helped me pick the yellows.',
    ],
  },
];

let t: TestApp;
const idOf = new Map<string, string>();
const NS = 'chat';

beforeAll(async () => {
  t = await openTestApp();
  for (const s of SESSIONS)
    for (const content of s.turns) {
      const res = await t.call('POST', '/remember', {
        content,
        type: 'event',
        namespace: NS,
        metadata: { session_time: s.time },
      });
      expect(res.status).toBe(201);
      idOf.set(content, res.body.id);
    }
});
afterAll(() => t.close());

interface Hit {
  id: string;
  content: string;
  explain: { context: number; speaker: number; time: number | null };
}
const recall = async (query: string, limit = 10): Promise<Hit[]> => {
  const res = await t.call('POST', '/recall', { query, namespace: NS, limit, explain: true });
  expect(res.status).toBe(200);
  return res.body;
};
const hitFor = (hits: Hit[], startsWith: string) => hits.find((h) => h.content.startsWith(startsWith));

describe('recall over a conversation', () => {
  it('lends a question turn’s evidence to the reply that answers it, and to its speaker’s next turn', async () => {
    const hits = await recall('where did Melanie spend the long weekend');
    const question = hitFor(hits, 'Caroline: Where did you spend');
    const reply = hitFor(hits, 'Melanie: Up in the mountains');
    const nextOfAsker = hitFor(hits, 'Caroline: That sounds lovely');
    expect(question, 'the turn that holds the words').toBeDefined();
    // The reply shares no word with the question; it is found through the turn before it.
    expect(reply?.explain.context).toBeGreaterThan(0);
    expect(hits.slice(0, 3).map((h) => h.id)).toContain(reply?.id);
    // Two turns on: the asker's next turn borrows less than the reply.
    expect(nextOfAsker?.explain.context ?? 0).toBeLessThan(reply?.explain.context ?? 0);
    expect(RERANK_WEIGHTS.forward2).toBeLessThan(RERANK_WEIGHTS.forward);
  });

  it('never lends across a session break: the next session’s first turn borrows nothing', async () => {
    const hits = await recall('I cannot wait to see it', 20);
    const last = hitFor(hits, 'Melanie: I cannot wait');
    expect(last).toBeDefined();
    const nextSession = hitFor(hits, 'Melanie: I painted a sunflower');
    expect(nextSession?.explain.context ?? 0).toBe(0);
  });

  it('reads a session time written as people write it, and prefers the turns of the day the question names', async () => {
    const onDay = await recall('what did Melanie paint on 20 June, 2023', 3);
    expect(onDay[0]?.content).toMatch(/^Melanie: I painted a sunflower/);
    expect(onDay[0]?.explain.time).toBe(1);
    const otherDay = await recall('what was painted on 8 May, 2023', 3);
    expect(otherDay[0]?.content).toMatch(/^Caroline: I painted a lighthouse/);
    expect(hitFor(otherDay, 'Melanie: I painted a sunflower')?.explain.time ?? 0).toBeLessThan(1);
  });

  it('prefers the turns of the speaker the question names', async () => {
    const hits = await recall('what did Caroline paint', 3);
    expect(hits[0]?.content).toMatch(/^Caroline: I painted a lighthouse/);
    expect(hits[0]?.explain.speaker).toBe(1);
    expect(hitFor(hits, 'Melanie: I painted a sunflower')?.explain.speaker ?? 0).toBe(0);
  });

  it('ranks a memory holding the very word above one holding only its stem', async () => {
    await t.call('POST', '/remember', { content: 'Alice is the product manager', namespace: 'words' });
    const production = await t.call('POST', '/remember', {
      content: 'The production database went down at noon',
      namespace: 'words',
    });
    const res = await t.call('POST', '/recall', { query: 'production', namespace: 'words' });
    expect(res.body[0]?.id).toBe(production.body.id);
  });

  it('fills the results past the fifth from sessions not shown yet before more of a shown one', async () => {
    const ns = 'spread';
    const said = async (content: string, time: string) => {
      const res = await t.call('POST', '/remember', {
        content,
        type: 'event',
        namespace: ns,
        metadata: { session_time: time },
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const trip = [
      'Jon: The kayak trip started at dawn below the old mill.',
      'Gina: How long was the kayak trip in the end?',
      'Jon: The kayak trip took nine hours with the portage.',
      'Gina: Did anyone capsize on the kayak trip?',
      'Jon: Only Sam, twice, on the last rapids of the kayak trip.',
      'Gina: I would love a kayak trip like that next summer.',
      'Jon: Then book the kayak trip early, the guides fill up.',
      'Gina: Is the kayak trip fine for beginners?',
    ];
    for (const turn of trip) await said(turn, '1:00 pm on 1 May, 2023');
    const window = await said('Gina: A red kayak hung in the shop window.', '2:00 pm on 9 May, 2023');
    const paddles = await said('Jon: My cousin sells kayak paddles now.', '3:00 pm on 19 May, 2023');
    const ask = async (limit: number) =>
      (await t.call('POST', '/recall', { query: 'the kayak trip', namespace: ns, limit })).body as {
        id: string;
        score: number;
        metadata: { session_time: string };
      }[];
    const ten = await ask(10);
    const five = await ask(5);
    // The first five are the best five, as a recall of five answers them.
    expect(ten.slice(0, 5).map((h) => h.id)).toEqual(five.map((h) => h.id));
    expect(new Set(ten.slice(0, 5).map((h) => h.metadata.session_time))).toEqual(new Set(['1:00 pm on 1 May, 2023']));
    // Then the two other sessions, though the trip's remaining turns score higher.
    expect(new Set(ten.slice(5, 7).map((h) => h.id))).toEqual(new Set([window, paddles]));
    expect(ten[7]?.score).toBeGreaterThan(ten[5]?.score ?? 1);
  });
});

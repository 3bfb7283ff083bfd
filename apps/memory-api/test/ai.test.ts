import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { appWithTokens, openTestApp, READ_TOKEN, type TestApp } from './helpers.ts';

const DOCUMENT = `Alice Johnson works at Acme Corp. She prefers dark mode in every editor.
The Bank of England raised rates to 5.25% on 3 August 2023.
Contact bob@example.com or see https://docs.example.com/setup for the install page.
- The build cluster has 64 GB of memory and 16 cores.
- Deploys take 12 minutes on average.`;

const { app, call, total, sql } = appWithTokens();

describe('POST /extract', () => {
  it('finds names, emails, URLs, dates, quantities and relationships, and stores one memory per fact', async () => {
    const res = await call('POST', '/extract', { content: DOCUMENT, namespace: 'extract-a', tags: ['onboarding'] });
    expect(res.status).toBe(201);
    expect(res.body.method).toBe('rules');
    expect(res.body.facts.map((f: { text: string }) => f.text)).toEqual([
      'Alice Johnson works at Acme Corp.',
      'She prefers dark mode in every editor.',
      'The Bank of England raised rates to 5.25% on 3 August 2023.',
      'Contact bob@example.com or see https://docs.example.com/setup for the install page.',
      'The build cluster has 64 GB of memory and 16 cores.',
      'Deploys take 12 minutes on average.',
    ]);
    const entities = Object.fromEntries(res.body.entities.map((e: { text: string; kind: string }) => [e.text, e.kind]));
    expect(entities).toEqual({
      'Alice Johnson': 'name',
      'Acme Corp': 'name',
      'Bank of England': 'name',
      '5.25%': 'quantity',
      '3 August 2023': 'date',
      'bob@example.com': 'email',
      'https://docs.example.com/setup': 'url',
      '64 GB': 'quantity',
      '16 cores': 'quantity',
      '12 minutes': 'quantity',
    });
    expect(res.body.relationships).toEqual([
      { subject: 'Alice Johnson', predicate: 'works_at', object: 'Acme Corp' },
      { subject: 'She', predicate: 'prefers', object: 'dark mode in every editor' },
    ]);
    expect(res.body.stored).toBe(6);
    expect(res.body.memories).toHaveLength(6);

    const alice = (await call('GET', `/memory?id=${res.body.memories[0].id}`)).body;
    expect(alice).toMatchObject({
      content: 'Alice Johnson works at Acme Corp.',
      namespace: 'extract-a',
      tags: ['onboarding'],
      source_type: 'extract',
      metadata: {
        entity: 'Alice Johnson',
        extracted: { method: 'rules' },
        relationships: [{ subject: 'Alice Johnson', predicate: 'works_at', object: 'Acme Corp' }],
      },
    });
    expect(res.body.memories[1].type).toBe('preference');
    // The metadata entity is a recall filter.
    const recalled = await call('POST', '/recall', { query: 'where does Alice work', entity: 'Alice Johnson' });
    expect(recalled.body.map((r: { id: string }) => r.id)).toEqual([alice.id]);

    // Entities are graph nodes; the relationship is an edge between them; the fact mentions both.
    const edges = await sql<{ source: string; target: string; edge_type: string }>(
      `SELECT s.label AS source, d.label AS target, e.edge_type FROM graph_edges e
         JOIN graph_nodes s ON s.id = e.source_id JOIN graph_nodes d ON d.id = e.target_id
        WHERE s.namespace = 'extract-a' ORDER BY e.edge_type, d.label`,
    );
    expect(edges.filter((e) => e.edge_type === 'works_at')).toEqual([
      { source: 'Alice Johnson', target: 'Acme Corp', edge_type: 'works_at' },
    ]);
    expect(
      edges
        .filter((e) => e.source === 'Alice Johnson works at Acme Corp.' && e.edge_type === 'mentions')
        .map((e) => e.target),
    ).toEqual(['Acme Corp', 'Alice Johnson']);
    // "She" names nobody: no node for it.
    expect(await sql(`SELECT 1 FROM graph_nodes WHERE lower(label) = 'she'`)).toHaveLength(0);
  });

  it('is safe to repeat: the same text stores nothing new and reuses the entity nodes', async () => {
    const nodes = async () => (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM graph_nodes`))[0]?.n;
    const before = { memories: await total(), nodes: await nodes() };
    const res = await call('POST', '/extract', { content: DOCUMENT, namespace: 'extract-a', tags: ['onboarding'] });
    expect(res.status).toBe(200);
    expect(res.body.stored).toBe(0);
    expect(res.body.memories.every((m: { created: boolean }) => !m.created)).toBe(true);
    expect(res.body.graph).toEqual({ nodes_created: 0, edges_created: 0 });
    expect({ memories: await total(), nodes: await nodes() }).toEqual(before);
  });

  it('with store false only shows the extraction; max_facts caps the facts; type applies to all', async () => {
    const before = await total();
    const preview = await call('POST', '/extract', { content: DOCUMENT, store: false, max_facts: 2 });
    expect(preview.status).toBe(200);
    expect(preview.body.facts).toHaveLength(2);
    expect(preview.body.stored).toBe(0);
    expect(await total()).toBe(before);

    const typed = await call('POST', '/extract', {
      content: 'Grace Hopper wrote the first compiler. Grace Hopper lives in Arlington.',
      namespace: 'extract-b',
      type: 'note',
    });
    expect(typed.body.memories.map((m: { type: string }) => m.type)).toEqual(['note', 'note']);
    expect(typed.body.relationships).toEqual([
      { subject: 'Grace Hopper', predicate: 'created', object: 'first compiler' },
      { subject: 'Grace Hopper', predicate: 'lives_in', object: 'Arlington' },
    ]);
  });

  it('rejects bad input with 400 {error} and stores nothing', async () => {
    const before = await total();
    const cases: [unknown, RegExp][] = [
      [{}, /content/],
      [{ content: '   ' }, /content must not be empty/],
      [{ content: 'Alice works here.', max_facts: 0 }, /max_facts must be a whole number from 1 to 200/],
      [{ content: 'Alice works here.', max_facts: 'many' }, /max_facts/],
      [{ content: 'Alice works here.', type: 'rumour' }, /unknown memory type "rumour"/],
      [{ content: 'Alice works here.', model: 'gpt-x' }, /EXTRACT_LLM_URL is not set/],
      [{ content: 'Alice works here.', namespace: 7 }, /namespace must be a string, not an integer/],
      [{ content: 'Alice works here.', tags: [{}] }, /tags/],
      [{ content: 'Alice works here.', store: 'maybe' }, /store/],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/extract', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect(await total()).toBe(before);
  });

  it('needs a full token (it writes); no token is 401', async () => {
    expect((await call('POST', '/extract', { content: DOCUMENT }, READ_TOKEN)).status).toBe(403);
    expect((await app().call('POST', '/extract', { content: DOCUMENT })).status).toBe(401);
  });
});

describe('POST /extract with a configured model endpoint', () => {
  let llm: Server;
  let mode: 'ok' | 'garbage' | 'hang' = 'ok';
  const seen: { body: Record<string, unknown>; authorization: string | undefined }[] = [];
  let m: TestApp;

  const readBody = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return JSON.parse(text) as Record<string, unknown>;
  };

  beforeAll(async () => {
    // A real OpenAI-compatible server on loopback, answering with a fixed completion.
    llm = createServer(async (req, res) => {
      const body = await readBody(req);
      seen.push({ body, authorization: req.headers.authorization });
      if (mode === 'hang') return; // never answers
      const content =
        mode === 'garbage'
          ? 'I think the facts are interesting.'
          : JSON.stringify({
              facts: [
                {
                  text: 'Marie Curie won two Nobel prizes.',
                  entities: [{ text: 'Marie Curie', kind: 'name' }],
                  relationships: [{ subject: 'Marie Curie', predicate: 'won', object: 'two Nobel prizes' }],
                },
                { text: '' },
              ],
            });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
    await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
    const { port } = llm.address() as AddressInfo;
    m = await openTestApp({
      env: {
        EXTRACT_LLM_URL: `http://127.0.0.1:${port}/v1`,
        EXTRACT_LLM_API_KEY: 'sk-test-key',
        EXTRACT_LLM_TIMEOUT_MS: '300',
      },
    });
  });
  afterAll(async () => {
    await m.close();
    llm.closeAllConnections();
    await new Promise((resolve) => llm.close(resolve));
  });

  it('calls the endpoint when a model is named, and stores the facts it returns', async () => {
    const res = await m.call('POST', '/extract', {
      content: 'Marie Curie, physicist, Nobel 1903 and 1911.',
      model: 'tiny-1',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ method: 'model', model: 'tiny-1', stored: 1 });
    expect(res.body.facts).toEqual([
      {
        text: 'Marie Curie won two Nobel prizes.',
        entities: [{ text: 'Marie Curie', kind: 'name' }],
        relationships: [{ subject: 'Marie Curie', predicate: 'won', object: 'two Nobel prizes' }],
      },
    ]);
    const last = seen.at(-1) as (typeof seen)[number];
    expect(last.authorization).toBe('Bearer sk-test-key');
    expect(last.body.model).toBe('tiny-1');
    expect((last.body.messages as { content: string }[])[1]?.content).toBe(
      'Marie Curie, physicist, Nobel 1903 and 1911.',
    );
    const stored = (await m.call('GET', `/memory?id=${res.body.memories[0].id}`)).body;
    expect(stored.metadata.extracted).toEqual({ method: 'model', model: 'tiny-1' });
  });

  it('without a model it stays rule-based (EXTRACT_LLM_MODEL unset)', async () => {
    const calls = seen.length;
    const res = await m.call('POST', '/extract', {
      content: 'Ada Lovelace works at Analytical Engines.',
      store: false,
    });
    expect(res.body.method).toBe('rules');
    expect(seen.length).toBe(calls);
  });

  it('answers 502 for an answer that is not the JSON asked for, and 504 on timeout; nothing stored', async () => {
    const before = (await m.call('GET', '/stats')).body.total;
    mode = 'garbage';
    const bad = await m.call('POST', '/extract', { content: 'Some text here.', model: 'tiny-1' });
    expect(bad.status).toBe(502);
    expect(bad.body.error).toMatch(/not the JSON/);
    mode = 'hang';
    const slow = await m.call('POST', '/extract', { content: 'Some text here.', model: 'tiny-1' });
    expect(slow.status).toBe(504);
    expect(slow.body.error).toMatch(/within 300 ms/);
    mode = 'ok';
    expect((await m.call('GET', '/stats')).body.total).toBe(before);
  });
});

describe('POST /context', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const memories = {
      editor: 'The user prefers dark mode in the code editor',
      terminal: 'The user prefers a dark terminal theme with large fonts',
      lunch: 'Lunch is usually at noon in the office kitchen',
      long: `The user prefers dark mode ${'because bright screens tire the eyes late at night '.repeat(8)}`,
    };
    for (const [name, content] of Object.entries(memories)) {
      ids[name] = (await call('POST', '/remember', { content, namespace: 'ctx' })).body.id;
    }
    ids.other = (
      await call('POST', '/remember', { content: 'The user prefers dark mode everywhere', namespace: 'ctx-other' })
    ).body.id;
  });

  it('returns a text block of the relevant memories and their ids, within the budget', async () => {
    const res = await call('POST', '/context', { query: 'dark mode preference', namespace: 'ctx' }, READ_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body.text.startsWith('Relevant memories (most relevant first):\n')).toBe(true);
    expect(res.body.ids).toContain(ids.editor);
    expect(res.body.ids).not.toContain(ids.other); // another namespace
    expect(res.body.text).toContain('- [preference, ');
    expect(res.body.text).toContain('The user prefers dark mode in the code editor');
    expect(res.body.text.length).toBe(res.body.budget_used);
    expect(res.body.budget_chars).toBe(4000);
    expect(res.body.memories.map((x: { id: string }) => x.id)).toEqual(res.body.ids);
  });

  it('never exceeds budget_chars: a long memory is skipped, shorter ones still fit', async () => {
    const budget = 200;
    const res = await call('POST', '/context', {
      query: 'user prefers dark mode',
      namespace: 'ctx',
      budget_chars: budget,
    });
    expect(res.status).toBe(200);
    expect(res.body.text.length).toBeLessThanOrEqual(budget);
    expect(res.body.ids.length).toBeGreaterThan(0);
    expect(res.body.ids).not.toContain(ids.long);
    expect(res.body.skipped).toContainEqual({ id: ids.long, reason: 'budget' });
    for (const id of res.body.ids)
      expect(res.body.text).toContain((await call('GET', `/memory?id=${id}`)).body.content);

    const tiny = await call('POST', '/context', {
      query: 'user prefers dark mode',
      namespace: 'ctx',
      budget_chars: 30,
    });
    expect(tiny.body).toMatchObject({ text: '', ids: [], budget_used: 0 });
  });

  it('leaves out exclude_ids and counts an access only for what it returned', async () => {
    const res = await call('POST', '/context', {
      query: 'dark mode',
      namespace: 'ctx',
      exclude_ids: [ids.editor],
    });
    expect(res.body.ids).not.toContain(ids.editor);
    expect(res.body.skipped).toContainEqual({ id: ids.editor, reason: 'excluded' });
    const lunch = (await call('GET', `/memory?id=${ids.lunch}`)).body;
    expect(res.body.ids).not.toContain(ids.lunch);
    expect(lunch.access_count).toBe(0);
  });

  it('fills nothing with unrelated memories: strict unless told otherwise', async () => {
    const unrelated = { query: 'how long should the sourdough bread proof overnight', namespace: 'ctx' };
    const res = await call('POST', '/context', unrelated);
    expect(res.body).toMatchObject({ text: '', ids: [] });
    const loose = await call('POST', '/context', { ...unrelated, strict: false });
    expect(loose.body.ids.length).toBeGreaterThan(0);
    const floor = await call('POST', '/context', { ...unrelated, min_score: 0 });
    expect(floor.body.ids).toEqual(loose.body.ids);
  });

  it('rejects bad input with 400 {error}', async () => {
    for (const [body, message] of [
      [{}, /query/],
      [{ query: '  ' }, /query must not be empty/],
      [{ query: 'x', budget_chars: 0 }, /budget_chars must be a whole number/],
      [{ query: 'x', limit: 101 }, /limit must be a whole number from 1 to 100/],
      [{ query: 'x', strategy: 'psychic' }, /unknown strategy/],
      [{ query: 'x', exclude_ids: ['nope'] }, /exclude_ids/],
      [{ query: 'x', namespace: '' }, /namespace/],
    ] as [unknown, RegExp][]) {
      const res = await call('POST', '/context', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });
});

describe.skipIf(missing('postgres'))('extract on Postgres', () => {
  let pg: TestApp;
  beforeAll(async () => {
    pg = await openTestApp({ database: 'postgres' });
  });
  afterAll(() => pg?.close());

  it('stores extracted facts with graph nodes', async () => {
    const extracted = await pg.call('POST', '/extract', { content: DOCUMENT, namespace: 'pg' });
    expect(extracted.status).toBe(201);
    expect(extracted.body.stored).toBe(6);
    expect(extracted.body.graph.nodes_created).toBeGreaterThan(5);
  });
});

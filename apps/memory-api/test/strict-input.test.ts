import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
afterAll(() => t.close());

const total = async () => (await t.call('GET', '/stats')).body.total as number;

describe('strict input', () => {
  it('refuses an unknown field by name, pointing mem0-style scoping fields at namespace; stores nothing', async () => {
    const before = await total();
    const scoped = await t.call('POST', '/remember', { content: 'Eve likes green tea', user_id: 'eve' });
    expect(scoped.status).toBe(400);
    expect(scoped.body.error).toBe(
      'body.user_id is not a field of this request; memories are scoped by namespace: send "namespace" instead',
    );
    for (const field of ['agent_id', 'run_id']) {
      const res = await t.call('POST', '/recall', { query: 'tea', [field]: 'x' });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(`body.${field} is not a field`);
    }
    const other = await t.call('POST', '/remember', { content: 'x', colour: 'red' });
    expect(other.body.error).toMatch(/^body\.colour is not a field of this request; accepted fields: content, tags/);
    const query = await t.call('GET', '/recent?limit=3&colour=red');
    expect(query.status).toBe(400);
    expect(query.body.error).toMatch(/^querystring\.colour is not a field/);
    expect(await total()).toBe(before);
  });

  it('says what type was expected; bodies are not coerced, query strings are', async () => {
    const wrong = await t.call('POST', '/search', { query: 'x', limit: '5' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('body.limit must be an integer, not a string');
    const tags = await t.call('POST', '/remember', { content: 'x', tags: 'solo' });
    expect(tags.body.error).toBe('body.tags must be an array, not a string');
    const item = await t.call('POST', '/remember', { content: 'x', tags: ['a', 3] });
    expect(item.body.error).toBe('body.tags[1] must be a string, not an integer');
    expect((await t.call('GET', '/recent?limit=2')).status).toBe(200);
  });

  it('takes importance (0 to 1) and pinned on /remember', async () => {
    const res = await t.call('POST', '/remember', {
      content: 'The release train leaves on Thursdays',
      importance: 0.9,
      pinned: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ importance: 0.9, pinned: true });
    expect((await t.call('GET', `/memory?id=${res.body.id}`)).body).toMatchObject({ importance: 0.9, pinned: true });
    const high = await t.call('POST', '/remember', { content: 'too important', importance: 2 });
    expect(high.status).toBe(400);
    expect(high.body.error).toBe('body.importance must be a number from 0.0 to 1.0');
  });

  it('checks ranges in the schema, saying the range', async () => {
    const many = await t.call('POST', '/search', { query: 'x', limit: 101 });
    expect(many.status).toBe(400);
    expect(many.body.error).toBe('body.limit must be a whole number from 1 to 100');
    const deep = await t.call('GET', '/graph?node_id=00000000-0000-4000-8000-000000000000&depth=4');
    expect(deep.body.error).toBe('querystring.depth must be a whole number from 1 to 3');
    const ids = await t.call('POST', '/recall', { query: 'x', exclude_ids: ['nope'] });
    expect(ids.body.error).toBe('body.exclude_ids[0] must be an id (a UUID)');
  });

  it('gives every operation a schema: DELETE bodies, /verify and /repair refuse unknown fields too', async () => {
    // Routes whose input is not the API's: probes, metrics, the API description, MCP's JSON-RPC.
    const outside = /^\/(livez|readyz|health|metrics|openapi\.json|docs|mcp)\b/;
    const missing = t.app.routeCatalog
      .filter((r) => !outside.test(r.url) && r.method !== 'HEAD')
      .filter((r) => !(r.method === 'GET' ? r.schema.querystring : r.schema.body))
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    const memory = await t.call('POST', '/remember', { content: 'A memory to forget by body' });
    const forget = await t.call('DELETE', '/forget', { id: memory.body.id, user_id: 'eve' });
    expect(forget.status).toBe(400);
    expect(forget.body.error).toMatch(
      /^body\.user_id is not a field of this request; memories are scoped by namespace/,
    );
    expect((await t.call('DELETE', '/forget', { id: memory.body.id })).status).toBe(200);
    expect((await t.call('POST', '/verify', { deep: true })).body.error).toBe(
      'body.deep is not a field of this request; this request takes no fields',
    );
    expect((await t.call('POST', '/repair', { reembed: 'yes' })).body.error).toBe(
      'body.reembed must be a boolean, not a string',
    );
    // No body at all is an empty object: nothing to refuse.
    expect((await t.app.inject({ method: 'POST', url: '/verify' })).statusCode).toBe(200);
    const prune = await t.app.inject({ method: 'POST', url: '/prune' });
    expect(prune.statusCode).toBe(200);
    expect(prune.json()).toMatchObject({ dry_run: false });
  });

  it('answers 415 naming application/json for a body of another type or none', async () => {
    const asText = await t.app.inject({
      method: 'POST',
      url: '/remember',
      headers: { 'content-type': 'text/plain' },
      payload: '{"content":"x"}',
    });
    expect(asText.statusCode).toBe(415);
    expect(asText.json()).toEqual({ error: 'content-type text/plain is not accepted: send application/json' });
    const untyped = await t.app.inject({ method: 'POST', url: '/remember', payload: Buffer.from('{"content":"x"}') });
    expect(untyped.statusCode).toBe(415);
    expect(untyped.json().error).toMatch(/no content-type: send application\/json/);
  });
});

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
    expect(high.body.error).toBe('importance must be a number from 0.0 to 1.0');
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

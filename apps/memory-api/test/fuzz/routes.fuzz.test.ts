import { fuzzRoutes, isErrorBody, publicRoutes, tableFingerprint } from '@trove/http-fuzz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../helpers.ts';

// Every route memory-api serves, from Fastify's own route list, with requests generated from each
// route's schema (packages/http-fuzz). FUZZ_RUNS sets the requests per route (README: Testing).
let t: TestApp;
// MCP speaks JSON-RPC: its refusals are JSON-RPC errors (a body that is not JSON at all is still
// refused by the service kit in the REST shape).
const mcp = {
  headers: { accept: 'application/json, text/event-stream' },
  isError: (body: unknown) => {
    const b = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | null;
    if (isErrorBody(body)) return true;
    return b?.jsonrpc === '2.0' && typeof b.error?.code === 'number' && typeof b.error.message === 'string';
  },
};
let known: string[];

beforeAll(async () => {
  t = await openTestApp();
  const ids: string[] = [];
  for (const content of ['Kafka brokers run on three hosts', 'The deploy key rotates monthly']) {
    const res = await t.call('POST', '/remember', { content, tags: ['infra'], namespace: 'team' });
    ids.push(res.body.id);
  }
  await t.call('POST', '/room/create', { name: 'standup', namespace: 'team' });
  await t.call('POST', '/room/remember', { room_id: 'standup', content: 'Ship the release on Friday' });
  await t.call('POST', '/doc/create', { slug: 'runbook', content: 'Restart the brokers one at a time' });
  known = [...ids, 'team', 'infra', 'standup', 'runbook', 'default'];
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('memory-api under hostile input', () => {
  it('the two inputs the issue found answer 400 naming the field and store nothing', async () => {
    const nul = await t.call('POST', '/remember', { content: 'a\u0000b' });
    expect(nul).toEqual({ status: 400, body: { error: 'body.content must not contain NUL characters (U+0000)' } });
    const surrogate = await t.call('POST', '/remember', { content: 'ok', metadata: { note: 'x\uD800' } });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.error).toMatch(/^body\.metadata\.note .*surrogate/);
    const number = await t.call('POST', '/recall', { query: 42 });
    expect(number).toEqual({ status: 400, body: { error: 'body.query must be a string, not an integer' } });
    const listed = await t.call('POST', '/list', { limit: 50 });
    expect(listed.body.some((m: { content: string }) => m.content.includes('\u0000'))).toBe(false);
  });

  it('no route answers 5xx, hangs or changes data when it refuses', { timeout: 600_000 }, async () => {
    const db = t.app.memoryStore.db.sql;
    const fingerprint = await tableFingerprint((sql) => db.query(sql));
    const routes = publicRoutes(t.app);
    expect(routes.length).toBeGreaterThan(30);
    await fuzzRoutes({ app: t.app, known, fingerprint, protocols: { 'POST /mcp': mcp } }, routes);
  });
});

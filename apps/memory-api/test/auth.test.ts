import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_TOKEN as FULL, openTestApp, READ_TOKEN as READ, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ env: { AUTH_TOKENS: FULL, READ_ONLY_TOKENS: READ } });
});
afterAll(() => t.close());

describe('bearer tokens', () => {
  it('answers /health with only {status} without a valid token, and in full with one', async () => {
    expect((await t.call('GET', '/health')).body).toEqual({ status: 'ok' });
    expect((await t.call('GET', '/health', undefined, 'wrong-token-but-long-enough')).body).toEqual({ status: 'ok' });
    for (const token of [FULL, READ]) {
      const res = await t.call('GET', '/health', undefined, token);
      expect(res.body).toMatchObject({ status: 'ok', version: '0.1.0', memories: 0, namespaces: 0 });
    }
  });

  it('401s other routes without a valid token; probes and metrics stay open', async () => {
    for (const [method, url] of [
      ['POST', '/recall'],
      ['POST', '/remember'],
      ['GET', '/stats'],
      ['GET', '/routes'],
      ['GET', '/export'],
    ] as const) {
      const res = await t.call(method, url, method === 'POST' ? { query: 'x', content: 'x' } : undefined);
      expect(res.status, url).toBe(401);
      expect(res.body.error).toMatch(/bearer token/);
      expect(
        (
          await t.call(
            method,
            url,
            method === 'POST' ? { query: 'x', content: 'x' } : undefined,
            'not-a-valid-token-000',
          )
        ).status,
      ).toBe(401);
    }
    expect((await t.app.inject('/livez')).statusCode).toBe(200);
    expect((await t.app.inject('/metrics')).statusCode).toBe(200);
  });

  it('lets a read-only token read but not write (403), and a full token do both', async () => {
    const denied = await t.call('POST', '/remember', { content: 'read-only tokens cannot write this' }, READ);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatch(/read-only/);
    const stored = await t.call('POST', '/remember', { content: 'full tokens can write this' }, FULL);
    expect(stored.status).toBe(201);
    const id = stored.body.id;
    expect((await t.call('POST', '/recall', { query: 'full tokens write' }, READ)).body[0].id).toBe(id);
    for (const [method, url, body] of [
      ['PUT', '/memory', { id, importance: 0.2 }],
      ['DELETE', `/forget?id=${id}`, undefined],
      ['POST', '/pin', { id }],
      ['POST', '/memory/feedback', { id, feedback: 'helpful' }],
      ['POST', '/import', { content: '{"content":"x"}' }],
      ['POST', '/tags/rename', { old: 'a', new: 'b' }],
      ['POST', '/namespaces/delete', { name: 'default' }],
      ['POST', '/repair', undefined],
    ] as const) {
      expect((await t.call(method, url, body, READ)).status, url).toBe(403);
    }
    expect((await t.call('GET', `/memory?id=${id}`, undefined, READ)).body.importance).toBe(0.5);
    const routes = (await t.call('GET', '/routes', undefined, READ)).body;
    expect(routes).toContainEqual(expect.objectContaining({ method: 'POST', path: '/remember', tier: 'write' }));
    expect(routes).toContainEqual(expect.objectContaining({ method: 'POST', path: '/recall', tier: 'read' }));
  });
});

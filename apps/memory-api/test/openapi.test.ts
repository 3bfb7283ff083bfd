import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
afterAll(() => t.close());

describe('API description', () => {
  it('serves /openapi.json, a valid OpenAPI 3.1 document with every route and its request schema', async () => {
    const res = await t.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const document = res.body;
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const remember = document.paths['/remember'].post;
    expect(remember.operationId).toBe('remember_post');
    const body = remember.requestBody.content['application/json'].schema;
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['content', 'importance', 'pinned']));
    // Every route of the registry is described.
    const routes: { method: string; path: string }[] = (await t.call('GET', '/routes')).body;
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(document.paths[path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    }
  });

  it('serves an explorer at /docs from this process, with no third-party origin', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/https?:\/\/(?!localhost)[^"']*\.(js|css)/);
    const script = /src="\.?\/?([^"]+\.js)"/.exec(page.body)?.[1] as string;
    expect((await t.app.inject({ method: 'GET', url: `/docs/${script.replace(/^docs\//, '')}` })).statusCode).toBe(200);
  });
});

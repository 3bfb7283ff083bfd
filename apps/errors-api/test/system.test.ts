import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { missing } from '../../../tests/support/requirements.ts';
import { envelope, newEventId } from './support/envelopes.ts';
import { type Running, setUp, startErrorsApi } from './support/harness.ts';

let server: Running;

beforeAll(async () => {
  server = await startErrorsApi();
});
afterAll(() => server.close());

/** Every route of the app, as OpenAPI paths. */
const ROUTES = [
  '/health',
  '/metrics',
  '/livez',
  '/readyz',
  '/api/docs/openapi.yaml',
  '/api/0/setup',
  '/api/0/auth/login',
  '/api/0/auth/logout',
  '/api/0/auth/me',
  '/api/0/auth/change-password',
  '/api/0/api-tokens/',
  '/api/0/api-tokens/{id}/',
  '/api/0/projects',
  '/api/0/projects/{slug}',
  '/api/0/projects/{slug}/archive',
  '/api/0/projects/{slug}/rotate-dsn',
  '/api/0/projects/{slug}/issues',
  '/api/0/projects/{slug}/search',
  '/api/0/issues/{id}',
  '/api/0/issues/{id}/status',
  '/api/0/issues/{id}/events',
  '/api/0/issues/{id}/tags',
  '/api/0/projects/{slug}/releases',
  '/api/0/organizations/{org}/chunk-upload/',
  '/api/0/organizations/{org}/artifactbundle/assemble/',
  '/api/0/organizations/{org}/releases/',
  '/api/0/organizations/{org}/releases/{version}/assemble/',
  '/api/0/projects/{slug}/rules',
  '/api/0/rules/{id}',
  '/api/0/rules/{id}/toggle',
  '/api/0/rules/{id}/deliveries',
  '/api/0/rules/{id}/test',
  '/api/0/ws',
  '/api/{project_id}/envelope/',
  '/api/{project_id}/store/',
];

describe('system routes', () => {
  it('answers /health with plain-text ok, readiness, and unknown routes in the error shape', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('ok');
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    const missing = await fetch(`${server.url}/api/0/nothing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'no route for GET /api/0/nothing' });
  });

  it.skipIf(missing('promtool'))(
    'serves Prometheus metrics that promtool accepts, ingest counters included',
    async () => {
      const { dsn } = await setUp(server.url);
      const key = new URL(dsn);
      await fetch(`${server.url}/api${key.pathname}/envelope/?sentry_key=${key.username}`, {
        method: 'POST',
        body: envelope({ event_id: newEventId(), message: 'counted' }),
      });
      const text = await (await fetch(`${server.url}/metrics`)).text();
      expect(text).toMatch(/errors_ingest_events_total\{outcome="accepted",service="errors-api"\} 1/);
      expect(text).toContain('route="/api/:project_id/envelope/",status_code="200"');
      const dir = await mkdtemp(join(tmpdir(), 'errors-metrics-'));
      try {
        await writeFile(join(dir, 'metrics.txt'), text);
        const result = await promisify(execFile)('sh', [
          '-c',
          `promtool check metrics < ${join(dir, 'metrics.txt')}`,
        ]).catch((err: { code?: number; stderr?: string }) => err);
        expect((result as { stderr?: string }).stderr ?? '').toBe('');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it('serves the explorer and an OpenAPI document that covers every route', async () => {
    const page = await fetch(`${server.url}/api/docs/`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
    const res = await fetch(`${server.url}/api/docs/openapi.yaml`);
    expect(res.headers.get('content-type')).toMatch(/yaml/);
    const doc = parse(await res.text());
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).sort()).toEqual([...ROUTES].sort());
    for (const path of ROUTES) {
      const url = path.replace('{slug}', 'default').replace('{id}', 'x').replace('{project_id}', '1');
      // Each documented path is really served (a 404 would name "no route").
      for (const method of Object.keys(doc.paths[path])) {
        const res = await fetch(`${server.url}${url}`, { method: method.toUpperCase() });
        expect((await res.text()).includes('no route for'), `${method} ${path}`).toBe(false);
      }
    }
    expect(doc.paths['/api/0/projects'].post.requestBody.content['application/json'].schema.required).toEqual(['name']);
    // Rule bodies list what they allow.
    const ruleBody = doc.paths['/api/0/projects/{slug}/rules'].post.requestBody.content['application/json'].schema;
    expect(ruleBody.properties.action_type.enum).toEqual(['webhook']);
    expect(Object.keys(ruleBody.properties.conditions.properties)).toEqual([
      'level',
      'min_count',
      'title_contains',
      'new_issue',
    ]);
    expect(ruleBody.properties.conditions.description).toContain('level, min_count, title_contains, new_issue');
  });
});

import { fuzzRoutes, htmlPage, publicRoutes, tableFingerprint } from '@trove/http-fuzz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Api, client, eventually, type Running, setUp, startErrorsApi } from '../support/harness.ts';

// Every dashboard and system route of errors-api, from Fastify's own route list, with requests
// generated from each route's schema (packages/http-fuzz); ingest has its own protocol-level fuzz.
let server: Running;
let api: Api;
const known: string[] = [];

beforeAll(async () => {
  // Sign-ins are rate limited; the fuzz signs in again after each fuzzed logout.
  server = await startErrorsApi({ LOGIN_ATTEMPTS_PER_MINUTE: '10000' });
  const setup = await setUp(server.url);
  api = setup.api;
  const dsn = new URL(setup.dsn);
  const projectId = dsn.pathname.slice(1);
  const res = await fetch(`${server.url}/api/${projectId}/store/?sentry_key=${dsn.username}`, {
    method: 'POST',
    body: JSON.stringify({ message: 'disk full on /var', level: 'error' }),
  });
  expect(res.status).toBe(200);
  const issues = await eventually(async () => {
    const list = await api.call('GET', `/api/0/projects/${setup.projectSlug}/issues`);
    return list.json?.data?.length > 0 ? list.json.data : undefined;
  }, 'the first issue');
  // The event's tag counts are written a second later (ingest/tag-counts.ts): a refused request
  // must not be blamed for that write, so the fuzz starts once it is done.
  await eventually(async () => {
    const [row] = await server.app.errors.db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM issue_tags');
    return (row?.n ?? 0) > 0 ? true : undefined;
  }, "the first event's tag counts");
  known.push(setup.projectSlug, projectId, dsn.username, issues[0].id, ADMIN.email, 'unresolved', 'resolved');
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('errors-api under hostile input', () => {
  it('no route answers 5xx, hangs or changes data when it refuses', { timeout: 600_000 }, async () => {
    const db = server.app.errors.db.sql;
    const fingerprint = await tableFingerprint((sql) => db.query(sql));
    const routes = publicRoutes(server.app, (r) => r.url.startsWith('/api/:project_id/'));
    expect(routes.length).toBeGreaterThan(15);
    await fuzzRoutes(
      {
        app: server.app,
        known,
        fingerprint,
        // The dashboard's pages answer browsers with HTML pages, errors included.
        protocols: Object.fromEntries(
          routes
            .filter((r) => !/^\/(api|health|livez|readyz|metrics)\b/.test(r.url))
            .map((r) => [`${r.method} ${r.url}`, { isError: htmlPage }]),
        ),
        headers: () => ({ cookie: api.cookie }),
        afterEach: async () => {
          if ((await api.call('GET', '/api/0/auth/me')).status === 401) {
            const fresh = client(server.url);
            await fresh.call('POST', '/api/0/auth/login', { email: ADMIN.email, password: ADMIN.password });
            api.cookie = fresh.cookie;
          }
        },
      },
      routes,
    );
  });
});

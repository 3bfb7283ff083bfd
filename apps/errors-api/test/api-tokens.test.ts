import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, client, type Running, setUp, startErrorsApi } from './support/harness.ts';

describe('auth tokens', () => {
  let server: Running;
  let api: Api;

  beforeAll(async () => {
    server = await startErrorsApi();
    api = (await setUp(server.url)).api;
  });
  afterAll(() => server.close());

  const withToken = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

  it('makes a token from a session, stores only its hash, lists it and revokes it', async () => {
    const created = await api.call('POST', '/api/0/api-tokens/', { name: 'CI uploads', scopes: ['project:releases'] });
    expect(created.status).toBe(201);
    const { token, id } = created.json;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(created.json).toMatchObject({ name: 'CI uploads', token_last_characters: token.slice(-4) });

    const stored = await server.app.errors.db.sql.query<{ token_hash: string }>('SELECT token_hash FROM api_tokens');
    expect(stored).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);

    const listed = (await api.call('GET', '/api/0/api-tokens/')).json;
    expect(listed).toEqual([expect.objectContaining({ id, name: 'CI uploads', date_last_used: null })]);
    expect(JSON.stringify(listed)).not.toContain(token);

    const projects = await withToken(token, '/api/0/projects');
    expect(projects.status).toBe(200);
    expect((await api.call('GET', '/api/0/api-tokens/')).json[0].date_last_used).toEqual(expect.any(String));
    // A token cannot mint tokens, and nothing without a session can.
    const minted = await withToken(token, '/api/0/api-tokens/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(minted.status).toBe(403);
    expect((await client(server.url).call('POST', '/api/0/api-tokens/', {})).status).toBe(401);
    expect((await withToken('f'.repeat(64), '/api/0/projects')).status).toBe(401);

    expect((await api.call('DELETE', `/api/0/api-tokens/${id}/`)).status).toBe(204);
    expect((await api.call('DELETE', `/api/0/api-tokens/${id}/`)).status).toBe(404);
    expect((await withToken(token, '/api/0/projects')).status).toBe(401);
  });

  it('refuses a field the API does not take, naming it, and creates nothing', async () => {
    // A typo used to be dropped: the project was made with a slug derived from its name.
    const project = await api.call('POST', '/api/0/projects', { name: 'Typo Shop', slugg: 'shop' });
    expect(project.status).toBe(400);
    expect(project.json).toEqual({ error: 'body.slugg is not a field of this request; accepted fields: name, slug' });
    const projects = (await api.call('GET', '/api/0/projects')).json as { name: string }[];
    expect(projects.map((p) => p.name)).not.toContain('Typo Shop');
    const token = await api.call('POST', '/api/0/api-tokens/', { name: 'uploads', scope: ['project:releases'] });
    expect(token.status).toBe(400);
    expect(token.json.error).toMatch(/^body\.scope is not a field of this request; accepted fields: name, scopes/);
    expect((await api.call('GET', '/api/0/api-tokens/')).json).not.toContainEqual(
      expect.objectContaining({ name: 'uploads' }),
    );
  });

  it('shows, creates and revokes tokens on the dashboard settings page', async () => {
    const get = () => fetch(`${server.url}/settings/tokens`, { headers: { cookie: api.cookie } });
    const pageHtml = await (await get()).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(pageHtml)?.[1] as string;
    const post = (path: string, form: Record<string, string>) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: api.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, ...form }),
      });
    const made = await post('/settings/tokens', { name: 'laptop' });
    expect(made.status).toBe(200);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const madeHtml = await made.text();
    const token = /<code id="new-token">([0-9a-f]{64})<\/code>/.exec(madeHtml)?.[1] as string;
    expect((await withToken(token, '/api/0/auth/me')).status).toBe(200);
    const listed = await (await get()).text();
    expect(listed).toContain('laptop');
    expect(listed).not.toContain(token);
    const id = (await api.call('GET', '/api/0/api-tokens/')).json[0].id;
    expect((await post(`/settings/tokens/${id}/revoke`, {})).status).toBe(303);
    expect((await withToken(token, '/api/0/auth/me')).status).toBe(401);
    expect((await post('/settings/tokens', { name: 'forged', _csrf: 'nope' })).status).toBe(403);
  });
});

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { ENGINES } from './support/engines.ts';
import { type Api, eventually, type Running, setUp, startErrorsApi } from './support/harness.ts';
import { MinifiedApp, PAYMENTS_THROW_LINE } from './support/minified-app.ts';
import { sentryCli, sentryCliRequirement } from './support/sentry-cli.ts';

describe.skipIf(missing(sentryCliRequirement)).each(ENGINES)(
  'source maps uploaded by the real sentry-cli ($name)',
  (engine) => {
    let server: Running;
    let api: Api;
    let dsn: string;
    let token: string;
    let work: string;
    let drop: () => Promise<void>;
    let app: MinifiedApp;
    const bundle = (out: string, extra?: string) => app.bundle(out, extra);
    const run = (out: string, release?: string) => app.run(out, dsn, release);

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), 'errors-sourcemaps-'));
      const db = await engine.env();
      drop = db.drop;
      // Embedded on disk, as an install keeps bundles there (files under DATA_DIR); Postgres in bytea.
      server = await startErrorsApi(engine.name === 'embedded' ? { DATA_DIR: join(work, 'data') } : db.env);
      const setup = await setUp(server.url);
      api = setup.api;
      dsn = setup.dsn;
      token = (await api.call('POST', '/api/0/api-tokens/', { name: 'CI' })).json.token;
      app = new MinifiedApp(work);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
      await drop?.();
      await rm(work, { recursive: true, force: true });
    });

    const issues = async () => (await api.call('GET', '/api/0/projects/default/issues?status=&per_page=100')).json.data;
    const topFrame = (event: { exception: { values: { stacktrace: { frames: object[] } }[] } }) =>
      event.exception.values.at(-1)?.stacktrace.frames.at(-1) as Record<string, unknown>;

    it('resolves frames with debug ids (sourcemaps inject + upload), groups new builds together, shows it on the page', async () => {
      await bundle('dist');
      expect(await sentryCli(['sourcemaps', 'inject', 'dist'], server.url, token, work)).toMatch(/debug id/i);
      const uploaded = await sentryCli(['sourcemaps', 'upload', 'dist'], server.url, token, work);
      expect(uploaded).toMatch(/artifact bundle/);
      const [stored] = await server.app.errors.db.sql.query<{ inline: boolean }>(
        'SELECT content IS NOT NULL AS inline FROM artifact_bundles',
      );
      if (engine.name === 'embedded') {
        expect(stored?.inline).toBe(false);
        expect((await readdir(join(work, 'data/artifact-bundles'))).some((f) => f.endsWith('.zip'))).toBe(true);
      } else expect(stored?.inline).toBe(true);
      await run('dist');
      const [issue] = await eventually(async () => ((await issues()).length > 0 ? issues() : undefined), 'the issue');
      expect(issue).toMatchObject({
        title: 'TypeError: payment gateway refused 4242',
        culprit: 'src/payments.ts in chargeCard',
      });
      const detail = (await api.call('GET', `/api/0/issues/${issue.id}`)).json;
      expect(topFrame(detail.latest_event)).toMatchObject({
        filename: 'src/payments.ts',
        function: 'chargeCard',
        lineno: PAYMENTS_THROW_LINE,
        in_app: true,
        context_line: expect.stringContaining('throw new TypeError'),
      });
      const raw = detail.latest_event.exception.values.at(-1).raw_stacktrace.frames.at(-1);
      expect(raw.filename).toMatch(/dist\/app\.js$/);
      expect(raw.function).not.toBe('chargeCard');

      const page = await (await fetch(`${server.url}/issues/${issue.id}`, { headers: { cookie: api.cookie } })).text();
      expect(page).toContain('src/payments.ts');
      expect(page).toContain('chargeCard');

      // A new build of the same code (other minified names and positions, another debug id) is the same issue.
      await bundle('dist', 'export const unrelated = [1, 2, 3].map((n) => n * 2);');
      await sentryCli(['sourcemaps', 'inject', 'dist'], server.url, token, work);
      await sentryCli(['sourcemaps', 'upload', 'dist'], server.url, token, work);
      await run('dist');
      const after = await eventually(async () => {
        const list = await issues();
        return list[0]?.count === 2 ? list : undefined;
      }, 'the second event');
      expect(after).toHaveLength(1);
    }, 120_000);

    it('resolves frames by release and URL (upload --release, no debug ids), and maps uploaded after the event', async () => {
      expect(await sentryCli(['releases', 'new', 'shop@1.0.0'], server.url, token, work)).toMatch(/shop@1\.0\.0/);
      const releases = (await api.call('GET', '/api/0/projects/default/releases')).json.data;
      expect(releases.map((r: { version: string }) => r.version)).toContain('shop@1.0.0');
      await bundle('dist-release');
      await sentryCli(['sourcemaps', 'upload', '--release', 'shop@1.0.0', 'dist-release'], server.url, token, work);
      await run('dist-release', 'shop@1.0.0');
      const resolved = await eventually(async () => {
        const list = await issues();
        return list.find((i: { count: number }) => i.count === 3);
      }, 'the release event, grouped with the others');
      expect(resolved.last_release).toBe('shop@1.0.0');

      // An event whose maps arrive later: stored as sent, resolved when viewed once they are uploaded.
      await bundle('dist-late', 'export const later = 1;');
      await sentryCli(['sourcemaps', 'inject', 'dist-late'], server.url, token, work);
      await run('dist-late');
      const late = await eventually(
        async () => (await issues()).find((i: { count: number }) => i.count === 1),
        'the late issue',
      );
      const before = (await api.call('GET', `/api/0/issues/${late.id}`)).json.latest_event;
      expect(topFrame(before).filename).toMatch(/dist-late\/app\.js$/);
      await sentryCli(['sourcemaps', 'upload', 'dist-late'], server.url, token, work);
      const events = (await api.call('GET', `/api/0/issues/${late.id}/events`)).json.data;
      expect(topFrame(events[0].payload)).toMatchObject({ filename: 'src/payments.ts', function: 'chargeCard' });
    }, 120_000);

    it('refuses another organization, chunks that do not match their name, and calls without a token', async () => {
      const call = (path: string, init: RequestInit = {}, auth = `Bearer ${token}`) =>
        fetch(`${server.url}${path}`, { ...init, headers: { authorization: auth, ...init.headers } });
      expect((await call('/api/0/organizations/acme/chunk-upload/')).status).toBe(404);
      expect((await call('/api/0/organizations/trove/chunk-upload/', {}, 'Bearer nope')).status).toBe(401);
      const form = new FormData();
      form.append('file', new Blob(['hello']), 'a'.repeat(40));
      const bad = await call('/api/0/organizations/trove/chunk-upload/', { method: 'POST', body: form });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toMatch(/sha1/);
      const assemble = await call('/api/0/organizations/trove/artifactbundle/assemble/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ checksum: 'b'.repeat(40), chunks: ['b'.repeat(40)], projects: ['default'] }),
      });
      expect(await assemble.json()).toEqual({ state: 'not_found', missingChunks: ['b'.repeat(40)] });
    });
  },
);

// The organization is `trove` unless configured: sentry-cli then uploads under the configured one.
describe.skipIf(missing(sentryCliRequirement))('source maps under a configured organization', () => {
  let server: Running;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'errors-org-'));
    server = await startErrorsApi({ ORGANIZATION_SLUG: 'acme-eu' });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('takes uploads for ORGANIZATION_SLUG only, and says so on the tokens page', async () => {
    const { api } = await setUp(server.url);
    const token = (await api.call('POST', '/api/0/api-tokens/', { name: 'CI' })).json.token;
    await new MinifiedApp(work).bundle('dist');
    await sentryCli(['sourcemaps', 'inject', 'dist'], server.url, token, work, { org: 'acme-eu' });
    await expect(sentryCli(['sourcemaps', 'upload', 'dist'], server.url, token, work)).rejects.toThrow(
      /organization not found/,
    );
    const uploaded = await sentryCli(['sourcemaps', 'upload', 'dist'], server.url, token, work, { org: 'acme-eu' });
    expect(uploaded).toMatch(/artifact bundle/);
    const bundles = await server.app.errors.db.sql.query('SELECT 1 FROM artifact_bundles');
    expect(bundles).toHaveLength(1);
    const options = await fetch(`${server.url}/api/0/organizations/acme-eu/chunk-upload/`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await options.json()) as { url: string }).url).toMatch(/\/organizations\/acme-eu\/chunk-upload\/$/);
    const page = await (await fetch(`${server.url}/settings/tokens`, { headers: { cookie: api.cookie } })).text();
    expect(page).toContain('--org acme-eu');
  }, 120_000);
});

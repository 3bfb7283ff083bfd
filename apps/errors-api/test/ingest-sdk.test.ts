import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './support/engines.ts';
import { type Api, eventually, type Running, setUp, startErrorsApi } from './support/harness.ts';
import { sentryClient } from './support/sentry.ts';

const UNCAUGHT = fileURLToPath(new URL('./fixtures/uncaught.mjs', import.meta.url));

function failingCheckout(): Error {
  const cause = new TypeError('Cannot read properties of undefined (reading "price")');
  return new Error('checkout failed for cart 8812', { cause });
}

describe.each(ENGINES)('ingest from the real @sentry/node SDK ($name)', (engine) => {
  let server: Running;
  let api: Api;
  let dsn: string;
  let slug: string;
  let drop: () => Promise<void>;

  const issues = async (query = '') =>
    (await api.call('GET', `/api/0/projects/${slug}/issues?per_page=100${query}`)).json.data as {
      id: string;
      title: string;
      count: number;
      level: string;
      status: string;
    }[];
  const issueTitled = async (title: string) => (await issues()).find((i) => i.title === title);

  beforeAll(async () => {
    const db = await engine.env();
    drop = db.drop;
    server = await startErrorsApi(db.env);
    ({ api, dsn, projectSlug: slug } = await setUp(server.url));
  });
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  it('stores handled exceptions with their causes and groups repeats into one issue', async () => {
    const sdk = sentryClient(dsn);
    for (let i = 0; i < 3; i++) sdk.scope.captureException(failingCheckout());
    await sdk.flush();
    expect(sdk.responses.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const issue = await issueTitled('Error: checkout failed for cart 8812');
    expect(issue).toMatchObject({ count: 3, level: 'error', status: 'unresolved' });
    const detail = (await api.call('GET', `/api/0/issues/${issue?.id}`)).json;
    expect(detail.grouping.method).toBe('stacktrace');
    expect(detail.grouping.components[0]).toBe('TypeError');
    expect(detail.grouping.components).toContain('Error');
    expect(detail.grouping.components.some((c: string) => c.includes('ingest-sdk.test.ts'))).toBe(true);
    expect(detail.culprit).toMatch(/ingest-sdk\.test\.ts in /);
    const events = (await api.call('GET', `/api/0/issues/${issue?.id}/events?per_page=2`)).json;
    expect(events.total).toBe(3);
    expect(events.data).toHaveLength(2);
    expect(sdk.responses.map((r) => r.eventId)).toContain(events.data[0].event_id);
    expect(events.data[0].payload.exception.values).toHaveLength(2);
  });

  it('stores messages as message events grouped by their text', async () => {
    const sdk = sentryClient(dsn);
    sdk.scope.captureMessage('cache miss storm on shard 3', 'warning');
    sdk.scope.captureMessage('cache miss storm on shard 7', 'warning');
    await sdk.flush();
    // Both land in one issue, titled after one of them (they may share a commit).
    const matching = (await issues()).filter((i) => i.title.startsWith('cache miss storm on shard'));
    expect(matching).toHaveLength(1);
    const issue = matching[0];
    expect(issue).toMatchObject({ count: 2, level: 'warning' });
    const detail = (await api.call('GET', `/api/0/issues/${issue?.id}`)).json;
    expect(detail.grouping).toEqual({ method: 'message', components: ['cache miss storm on shard <num>'] });
    const found = (await api.call('GET', `/api/0/projects/${slug}/search?q=${encodeURIComponent('MISS STORM')}`)).json;
    expect(found.data.map((i: { id: string }) => i.id)).toEqual([issue?.id]);
    const warnings = (await api.call('GET', `/api/0/projects/${slug}/issues?level=warning,fatal&status=unresolved`))
      .json;
    expect(warnings.data.map((i: { id: string }) => i.id)).toContain(issue?.id);
  });

  it('honours custom fingerprints', async () => {
    const sdk = sentryClient(dsn);
    for (const region of ['eu', 'us', 'eu']) {
      sdk.scope.captureException(new Error(`db timeout in ${region}`), {
        captureContext: { fingerprint: ['db-timeout', region] },
      });
    }
    await sdk.flush();
    const matching = (await issues()).filter((i) => i.title.startsWith('Error: db timeout'));
    expect(matching.map((i) => i.count).sort()).toEqual([1, 2]);
  });

  it('takes large events, which the SDK gzips', async () => {
    const sdk = sentryClient(dsn);
    const blob = Array.from({ length: 4000 }, (_, i) => `line ${i} of a long log`).join('\n');
    sdk.scope.captureException(new Error('huge context'), { captureContext: { extra: { blob } } });
    await sdk.flush();
    expect(sdk.responses.at(-1)?.statusCode).toBe(200);
    const issue = await issueTitled('Error: huge context');
    const events = (await api.call('GET', `/api/0/issues/${issue?.id}/events`)).json;
    expect(events.data[0].payload.extra.blob).toBe(blob);
  });

  it('stores an uncaught error as fatal, from a process that crashes', async () => {
    const child = spawn(process.execPath, [UNCAUGHT], { env: { ...process.env, SENTRY_DSN: dsn }, stdio: 'ignore' });
    const [code] = await once(child, 'exit');
    expect(code).not.toBe(0);
    const issue = await eventually(() => issueTitled('RangeError: the uncaught kind'), 'the uncaught error');
    expect(issue.level).toBe('fatal');
  });

  it('reopens a resolved issue when it happens again, and keeps an ignored one ignored', async () => {
    const sdk = sentryClient(dsn);
    sdk.scope.captureMessage('regression candidate');
    sdk.scope.captureMessage('ignored candidate');
    await sdk.flush();
    const resolved = await issueTitled('regression candidate');
    const ignored = await issueTitled('ignored candidate');
    await api.call('POST', `/api/0/issues/${resolved?.id}/status`, { status: 'resolved' });
    await api.call('POST', `/api/0/issues/${ignored?.id}/status`, { status: 'ignored' });
    expect((await issues('&status=resolved')).map((i) => i.id)).toEqual([resolved?.id]);
    sdk.scope.captureMessage('regression candidate');
    sdk.scope.captureMessage('ignored candidate');
    await sdk.flush();
    expect(await issueTitled('regression candidate')).toMatchObject({ status: 'unresolved', count: 2 });
    expect(await issueTitled('ignored candidate')).toMatchObject({ status: 'ignored', count: 2 });
  });

  it('refuses the old key right after a DSN rotation; an archived project still ingests', async () => {
    const old = sentryClient(dsn);
    const rotated = (await api.call('POST', `/api/0/projects/${slug}/rotate-dsn`)).json;
    expect(rotated.dsn).not.toBe(dsn);
    old.scope.captureMessage('sent with the revoked key');
    await old.flush();
    expect(old.responses.map((r) => r.statusCode)).toEqual([403]);
    expect(await issueTitled('sent with the revoked key')).toBeUndefined();

    expect((await api.call('POST', `/api/0/projects/${slug}/archive`)).status).toBe(200);
    const fresh = sentryClient(rotated.dsn);
    fresh.scope.captureMessage('sent to an archived project');
    await fresh.flush();
    expect(fresh.responses.map((r) => r.statusCode)).toEqual([200]);
    expect(await issueTitled('sent to an archived project')).toBeDefined();
    dsn = rotated.dsn;
  });
});

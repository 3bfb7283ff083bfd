import type { Logger } from '@trove/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TagCounts } from '../src/ingest/tag-counts.ts';
import { ENGINES } from './support/engines.ts';
import { envelope, errorEvent } from './support/envelopes.ts';
import { type Api, type Running, setUp, startErrorsApi } from './support/harness.ts';

describe.each(ENGINES)('releases, environments and tags ($name)', (engine) => {
  let server: Running;
  let api: Api;
  let dsn: URL;
  let drop: () => Promise<void>;

  /** One event of the issue named by `fingerprint`. */
  async function send(fingerprint: string, extra: object) {
    const res = await fetch(`${server.url}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`, {
      method: 'POST',
      body: envelope(errorEvent(`${fingerprint} failed`, { fingerprint: [fingerprint], ...extra })),
    });
    expect(res.status).toBe(200);
    // Tag counts are written after the events, at most a second later; tests do not wait for that.
    await server.app.errors.writer.flush();
  }
  const issueOf = async (fingerprint: string) => {
    const list = (await api.call('GET', '/api/0/projects/default/issues?per_page=100')).json.data;
    return list.find((i: { title: string }) => i.title === `TypeError: ${fingerprint} failed`);
  };

  beforeAll(async () => {
    const db = await engine.env();
    drop = db.drop;
    server = await startErrorsApi(db.env);
    const setup = await setUp(server.url);
    api = setup.api;
    dsn = new URL(setup.dsn);
  });
  afterAll(async () => {
    await server.close();
    await drop();
  });

  it('keeps the release and environment of events and issues, and lists releases with new issues', async () => {
    await send('checkout', { release: 'shop@1.0.0', environment: 'production', tags: { region: 'eu' } });
    await send('checkout', { release: 'shop@1.1.0', environment: 'staging', user: { email: 'a@example.com' } });
    await send('login', { release: 'shop@1.1.0', environment: 'production', tags: [['region', 'us']] });
    const checkout = await issueOf('checkout');
    expect(checkout).toMatchObject({ first_release: 'shop@1.0.0', last_release: 'shop@1.1.0', status_details: {} });

    const events = await api.call('GET', `/api/0/issues/${checkout.id}/events?environment=staging`);
    expect(events.json.total).toBe(1);
    expect(events.json.data[0]).toMatchObject({ release: 'shop@1.1.0', environment: 'staging' });
    expect((await api.call('GET', `/api/0/issues/${checkout.id}/events?release=shop@1.0.0`)).json.total).toBe(1);

    const tags = (await api.call('GET', `/api/0/issues/${checkout.id}/tags`)).json;
    const byKey = Object.fromEntries(tags.map((t: { key: string }) => [t.key, t]));
    expect(byKey.environment).toMatchObject({ total: 2, values_seen: 2 });
    expect(byKey.region.top_values).toMatchObject([{ value: 'eu', count: 1 }]);
    expect(byKey['user.email'].top_values[0].value).toBe('a@example.com');
    expect(byKey.level.top_values[0]).toMatchObject({ value: 'error', count: 2 });

    const releases = (await api.call('GET', '/api/0/projects/default/releases')).json;
    expect(releases.total).toBe(2);
    const versions = Object.fromEntries(releases.data.map((r: { version: string }) => [r.version, r]));
    expect(versions['shop@1.0.0']).toMatchObject({ new_issues: 1, event_count: 1 });
    expect(versions['shop@1.1.0']).toMatchObject({ new_issues: 1, event_count: 2 });
    expect(versions['shop@1.1.0'].last_event).toEqual(expect.any(String));
  });

  it('resolves in the next release: the current release keeps it resolved, a later one reopens it', async () => {
    await send('payment', { release: 'shop@2.0.0' });
    const issue = await issueOf('payment');
    const refused = await api.call('POST', `/api/0/issues/${issue.id}/status`, {
      status: 'ignored',
      in_next_release: true,
    });
    expect(refused.status).toBe(400);
    const resolved = await api.call('POST', `/api/0/issues/${issue.id}/status`, {
      status: 'resolved',
      in_next_release: true,
    });
    expect(resolved.json).toMatchObject({
      status: 'resolved',
      status_details: { in_next_release: true, after_release: 'shop@2.0.0' },
    });
    await send('payment', { release: 'shop@2.0.0' });
    expect(await issueOf('payment')).toMatchObject({ status: 'resolved', count: 2 });
    await send('payment', { release: 'shop@2.0.1' });
    expect(await issueOf('payment')).toMatchObject({ status: 'unresolved', count: 3, status_details: {} });

    // Plainly resolved, any event reopens it (a regression).
    await api.call('POST', `/api/0/issues/${issue.id}/status`, { status: 'resolved' });
    await send('payment', { release: 'shop@2.0.1' });
    expect(await issueOf('payment')).toMatchObject({ status: 'unresolved', count: 4 });

    await send('no-release', {});
    const bare = await issueOf('no-release');
    const noRelease = await api.call('POST', `/api/0/issues/${bare.id}/status`, {
      status: 'resolved',
      in_next_release: true,
    });
    expect(noRelease.status).toBe(400);
    expect(noRelease.json.error).toMatch(/names a release/);
  });

  it('searches like Sentry: is:, level:, release:, environment:, user.email:, any tag, free text, negation, sorts', async () => {
    const titles = async (path: string) => {
      const res = await api.call('GET', path);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      return res.json.data.map((i: { title: string }) => i.title.replace(/^TypeError: | failed$/g, '')).sort();
    };
    const q = (query: string, extra = '') =>
      titles(`/api/0/projects/default/issues?query=${encodeURIComponent(query)}${extra}`);
    expect(await q('release:shop@1.0.0')).toEqual(['checkout']);
    expect(await q('release:shop@1.1.0')).toEqual(['checkout', 'login']);
    // Each term matches any of the issue's events (tags are counted per issue, not per event).
    expect(await q('environment:production release:shop@1.1.0')).toEqual(['checkout', 'login']);
    expect(await q('environment:staging')).toEqual(['checkout']);
    expect(await q('user.email:a@example.com')).toEqual(['checkout']);
    expect(await q('region:[eu,us]')).toEqual(['checkout', 'login']);
    expect(await q('!region:eu release:shop@1.1.0')).toEqual(['login']);
    expect(await q('is:unresolved level:error checkout')).toEqual(['checkout']);
    expect(await q('"login failed"')).toEqual(['login']);
    expect(await q('first_release:shop@2.0.0')).toEqual(['payment']);
    expect(await titles('/api/0/projects/default/issues?environment=staging')).toEqual(['checkout']);
    expect(await titles('/api/0/projects/default/issues?release=shop@2.0.1&query=is:unresolved')).toEqual(['payment']);

    const sorted = async (sort: string) =>
      (await api.call('GET', `/api/0/projects/default/issues?sort=${sort}`)).json.data.map((i: { title: string }) =>
        i.title.replace(/^TypeError: | failed$/g, ''),
      );
    expect((await sorted('freq'))[0]).toBe('payment');
    expect((await sorted('new'))[0]).toBe('no-release');
    expect((await sorted('date'))[0]).toBe('no-release');
    expect((await sorted('user'))[0]).toBe('checkout');

    const typo = await api.call('GET', '/api/0/projects/default/issues?query=is:unresloved');
    expect(typo.status).toBe(400);
    expect(typo.json.error).toMatch(/Did you mean "unresolved"\?/);
    expect((await api.call('GET', '/api/0/projects/default/issues?query=level:eror')).json.error).toMatch(
      /Did you mean "error"/,
    );
    expect((await api.call('GET', '/api/0/projects/default/issues?query=release:')).status).toBe(400);
    expect((await api.call('GET', '/api/0/projects/default/issues?sort=loudest')).status).toBe(400);
  });

  it('writes a tag value new to an issue at once, and the counts of values already written later', async () => {
    await send('tagged', { tags: { shard: 'a' } });
    const issue = await issueOf('tagged');
    const projectId = Number(dsn.pathname.slice(1));
    const shard = async () => {
      const tags = (await api.call('GET', `/api/0/issues/${issue.id}/tags`)).json;
      const values = tags.find((t: { key: string }) => t.key === 'shard').top_values as {
        value: string;
        count: number;
      }[];
      return Object.fromEntries(values.map((v) => [v.value, v.count]));
    };
    const at = new Date().toISOString();
    // Counts of known values never come due on their own here: only new ones and flush write.
    const counts = new TagCounts(server.app.errors.db, server.app.log as Logger, 50, 3_600_000);
    counts.add(projectId, issue.id, [['shard', 'b']], at);
    counts.add(projectId, issue.id, [['shard', 'a']], at); // stored already, but not by this instance
    await expect.poll(shard, { timeout: 10_000 }).toEqual({ a: 2, b: 1 });
    counts.add(projectId, issue.id, [['shard', 'a']], at);
    counts.add(projectId, issue.id, [['shard', 'b']], at);
    counts.add(projectId, issue.id, [['shard', 'c']], at);
    await expect.poll(shard, { timeout: 10_000 }).toEqual({ a: 2, b: 1, c: 1 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await shard()).toEqual({ a: 2, b: 1, c: 1 });
    await counts.flush();
    expect(await shard()).toEqual({ a: 3, b: 2, c: 1 });
    // The slower timer writes the counts of known values by itself.
    const timed = new TagCounts(server.app.errors.db, server.app.log as Logger, 50, 200);
    timed.add(projectId, issue.id, [['shard', 'a']], at);
    await expect.poll(shard, { timeout: 10_000 }).toEqual({ a: 4, b: 2, c: 1 });
    timed.add(projectId, issue.id, [['shard', 'a']], at);
    await expect.poll(shard, { timeout: 10_000 }).toEqual({ a: 5, b: 2, c: 1 });
  });
});

import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, errorEvent, newEventId } from './support/envelopes.ts';
import { type Api, type Running, setUp, startErrorsApi } from './support/harness.ts';

const gzip = promisify(zlib.gzip);

let server: Running;
let api: Api;
let projectId: string;
let key: string;
let slug: string;

async function post(path: string, body: Buffer | string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', body, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const envelopePath = () => `/api/${projectId}/envelope/`;
const withKey = () => `${envelopePath()}?sentry_key=${key}&sentry_version=7`;

async function issueCount(): Promise<number> {
  return (await api.call('GET', `/api/0/projects/${slug}/issues?per_page=100`)).json.total;
}

async function eventTotal(): Promise<number> {
  const issues = (await api.call('GET', `/api/0/projects/${slug}/issues?per_page=100`)).json.data;
  return issues.reduce((sum: number, i: { count: number }) => sum + i.count, 0);
}

beforeAll(async () => {
  server = await startErrorsApi({
    INGEST_MAX_EVENT_BYTES: '200000',
    INGEST_MAX_REQUEST_BYTES: '400000',
    INGEST_MAX_DECOMPRESSED_BYTES: '1000000',
  });
  const setup = await setUp(server.url);
  api = setup.api;
  slug = setup.projectSlug;
  const dsn = new URL(setup.dsn);
  key = dsn.username;
  projectId = dsn.pathname.slice(1);
});
afterAll(() => server.close());

describe('ingest authentication', () => {
  it('accepts the key from X-Sentry-Auth, Authorization: Bearer, the query and the envelope dsn', async () => {
    const forms: [string, Record<string, string>, object?][] = [
      [envelopePath(), { 'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${key}, sentry_client=raven/1` }],
      [envelopePath(), { authorization: `Bearer ${key}` }],
      [withKey(), {}],
      [envelopePath(), {}, { dsn: `http://${key}@127.0.0.1/${projectId}` }],
    ];
    for (const [path, headers, header] of forms) {
      const event = errorEvent('auth form');
      const res = await post(path, envelope(event, { header }), headers);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json).toEqual({ id: event.event_id });
    }
    expect(await eventTotal()).toBe(4);
  });

  it('answers browser SDKs with CORS headers, preflight included', async () => {
    const preflight = await fetch(`${server.url}${envelopePath()}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/x-sentry-auth/);
    const res = await post(withKey(), envelope(errorEvent('from a browser')), {
      'content-type': 'text/plain;charset=UTF-8',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/x-sentry-rate-limits/);
  });

  it('refuses a missing key (401), a wrong key (403) and an unknown project (404)', async () => {
    const missing = await post(envelopePath(), envelope(errorEvent('x')));
    expect(missing.status).toBe(401);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    const wrong = await post(`${envelopePath()}?sentry_key=${'0'.repeat(32)}`, envelope(errorEvent('x')));
    expect(wrong.status).toBe(403);
    expect(wrong.json.error).toMatch(/not valid/);
    expect((await post(`/api/999999/envelope/?sentry_key=${key}`, envelope(errorEvent('x')))).status).toBe(404);
    expect((await post(`/api/abc/envelope/?sentry_key=${key}`, envelope(errorEvent('x')))).status).toBe(404);
  });
});

describe('ingest bodies', () => {
  it('takes gzip, deflate, raw deflate and brotli bodies with any or no content type', async () => {
    const before = await eventTotal();
    const bodies: [Buffer, Record<string, string>][] = [
      [await gzip(envelope(errorEvent('enc'))), { 'content-encoding': 'gzip' }],
      [zlib.deflateSync(envelope(errorEvent('enc'))), { 'content-encoding': 'deflate', 'content-type': 'text/plain' }],
      [zlib.deflateRawSync(envelope(errorEvent('enc'))), { 'content-encoding': 'deflate' }],
      [
        zlib.brotliCompressSync(envelope(errorEvent('enc'))),
        { 'content-encoding': 'br', 'content-type': 'application/x-sentry-envelope' },
      ],
      [envelope(errorEvent('enc')), { 'content-type': 'application/json' }],
      [envelope(errorEvent('enc')), { 'content-type': 'application/octet-stream' }],
    ];
    for (const [body, headers] of bodies) {
      const res = await post(withKey(), body, headers);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    }
    expect(await eventTotal()).toBe(before + bodies.length);
  });

  it('skips item types it does not store and answers an envelope without an event', async () => {
    const before = await eventTotal();
    const event = errorEvent('with friends');
    const body = envelope(event, {
      extraItems: [
        [{ type: 'session' }, JSON.stringify({ sid: 'x', status: 'ok' })],
        [{ type: 'attachment', filename: 'a.bin' }, Buffer.from([0, 1, 10, 255, 10, 13])],
        [{ type: 'client_report' }, '{}'],
        [{ type: 'log' }, '{"items":[]}'],
      ],
    });
    expect((await post(withKey(), body)).json).toEqual({ id: event.event_id });
    const sessionsOnly = Buffer.from('{}\n{"type":"session"}\n{"sid":"1"}\n{"type":"check_in","length":2}\n{}');
    const res = await post(withKey(), sessionsOnly);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({});
    expect(await eventTotal()).toBe(before + 1);
  });

  it('stores an event sent twice (a retry) once', async () => {
    const before = await eventTotal();
    const body = envelope(errorEvent('retried'));
    expect((await post(withKey(), body)).status).toBe(200);
    expect((await post(withKey(), body)).status).toBe(200);
    expect(await eventTotal()).toBe(before + 1);
  });

  it('accepts the legacy store endpoint, as JSON and as base64 of deflated JSON', async () => {
    const before = await eventTotal();
    const plain = errorEvent('legacy');
    const res = await post(`/api/${projectId}/store/`, JSON.stringify(plain), {
      'x-sentry-auth': `Sentry sentry_key=${key}`,
      'content-type': 'application/json',
    });
    expect(res.json).toEqual({ id: plain.event_id });
    const raven = zlib.deflateSync(Buffer.from(JSON.stringify(errorEvent('legacy')))).toString('base64');
    expect((await post(`/api/${projectId}/store/?sentry_key=${key}`, raven)).status).toBe(200);
    expect(await eventTotal()).toBe(before + 2);
  });
});

describe('bad input gets a 4xx and stores nothing', () => {
  it('refuses malformed envelopes', async () => {
    const before = await eventTotal();
    const event = Buffer.from(JSON.stringify(errorEvent('bad')));
    const cases: [string, Buffer, number][] = [
      ['empty body', Buffer.alloc(0), 400],
      ['bad JSON header', Buffer.from('{not json\n{"type":"event"}\n{}'), 400],
      ['header not an object', Buffer.from('[1,2]\n'), 400],
      ['item without type', Buffer.concat([Buffer.from('{}\n{"length":2}\n{}')]), 400],
      [
        'length past the end',
        Buffer.concat([Buffer.from(`{}\n{"type":"event","length":${event.length + 50}}\n`), event]),
        400,
      ],
      [
        'length too short',
        Buffer.concat([Buffer.from(`{}\n{"type":"event","length":${event.length - 5}}\n`), event]),
        400,
      ],
      ['negative length', Buffer.from('{}\n{"type":"event","length":-1}\n{}'), 400],
      ['truncated event JSON', Buffer.concat([Buffer.from('{}\n{"type":"event"}\n'), event.subarray(0, 30)]), 400],
      ['event not an object', Buffer.from('{}\n{"type":"event"}\n"just a string"'), 400],
      [
        'two events',
        Buffer.concat([Buffer.from('{}\n{"type":"event"}\n'), event, Buffer.from('\n{"type":"event"}\n'), event]),
        400,
      ],
      ['binary garbage', Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919) % 256)), 400],
      ['bad event_id', Buffer.from('{}\n{"type":"event"}\n{"event_id":"nope"}'), 400],
    ];
    for (const [name, body, status] of cases) {
      const res = await post(withKey(), body);
      expect(res.status, name).toBe(status);
      expect(typeof res.json.error, name).toBe('string');
    }
    const gz = await post(withKey(), Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' });
    expect(gz.status).toBe(400);
    expect((await post(withKey(), envelope(errorEvent('x')), { 'content-encoding': 'zstd' })).status).toBe(415);
    expect(await eventTotal()).toBe(before);
  });

  it('answers 413 for oversize requests, oversize events and a gzip bomb', async () => {
    const before = await eventTotal();
    const huge = errorEvent('huge', { extra: { blob: 'x'.repeat(300_000) } });
    expect((await post(withKey(), envelope(huge))).status).toBe(413);
    const tooBigEvent = errorEvent('big', { extra: { blob: 'y'.repeat(250_000) } });
    expect((await post(withKey(), await gzip(envelope(tooBigEvent)), { 'content-encoding': 'gzip' })).status).toBe(413);
    // 50 MB of zeros gzip to about 50 KB: under the request limit, far over the decompressed one.
    const bomb = await gzip(Buffer.alloc(50 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(400_000);
    const res = await post(withKey(), bomb, { 'content-encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(res.json.error).toMatch(/inflates past/);
    expect(await eventTotal()).toBe(before);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once a project spends its budget, per project', async () => {
    const limited = await startErrorsApi({ INGEST_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const setup = await setUp(limited.url);
      const dsn = new URL(setup.dsn);
      const path = `/api/${dsn.pathname.slice(1)}/envelope/?sentry_key=${dsn.username}`;
      const send = () =>
        fetch(`${limited.url}${path}`, { method: 'POST', body: envelope({ event_id: newEventId(), message: 'hi' }) });
      for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('x-sentry-rate-limits')).toMatch(/^\d+::project$/);
      // Another project has its own budget.
      const other = (await setup.api.call('POST', '/api/0/projects', { name: 'Other' })).json;
      const otherDsn = new URL(other.dsn);
      const res = await fetch(
        `${limited.url}/api/${otherDsn.pathname.slice(1)}/envelope/?sentry_key=${otherDsn.username}`,
        {
          method: 'POST',
          body: envelope({ event_id: newEventId(), message: 'hi' }),
        },
      );
      expect(res.status).toBe(200);
      const issues = await setup.api.call('GET', `/api/0/projects/${setup.projectSlug}/issues`);
      expect(issues.json.data[0].count).toBe(3);
    } finally {
      await limited.close();
    }
  });
});

it('groups exceptions without frames by type and value with the variable parts taken out', async () => {
  const before = await issueCount();
  for (const n of [1, 2, 3]) {
    const value = `order ${n}00${n} failed for user${n}@example.com`;
    const event = { event_id: newEventId(), exception: { values: [{ type: 'OrderError', value }] } };
    expect((await post(withKey(), envelope(event))).status).toBe(200);
  }
  expect(await issueCount()).toBe(before + 1);
  const found = await api.call('GET', `/api/0/projects/${slug}/search?q=OrderError`);
  expect(found.json.total).toBe(1);
  const detail = await api.call('GET', `/api/0/issues/${found.json.data[0].id}`);
  expect(detail.json.count).toBe(3);
  expect(detail.json.grouping).toEqual({
    method: 'exception',
    components: ['OrderError', 'order <num> failed for <email>'],
  });
});

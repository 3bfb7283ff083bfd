import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { assertReplayable, fuzzSettings, judge } from '@trove/http-fuzz';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPayload } from '../../src/ingest/prepare-event.ts';
import { envelope, errorEvent } from '../support/envelopes.ts';
import { type Running, setUp, startErrorsApi } from '../support/harness.ts';
import { sentryClient } from '../support/sentry.ts';

// Ingest at the protocol level: envelopes written by the real @sentry/node client, then broken
// (truncated, bit-flipped, item types swapped, length fields lying, compression wrong).
let server: Running;
let ingestUrl: string;
const captured: Buffer[] = [];

/** The bytes @sentry/node sends, caught by a loopback server posing as the ingest endpoint. */
async function captureSdkEnvelopes(): Promise<Buffer[]> {
  const bodies: Buffer[] = [];
  const catcher = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks));
      res.writeHead(200).end('{}');
    });
  });
  catcher.listen(0, '127.0.0.1');
  await once(catcher, 'listening');
  const { port } = catcher.address() as AddressInfo;
  const sdk = sentryClient(`http://0123456789abcdef0123456789abcdef@127.0.0.1:${port}/1`);
  sdk.scope.setUser({ id: 'u-1', email: 'ada@example.com' });
  sdk.scope.setTag('release', '1.2.3');
  sdk.scope.addBreadcrumb({ message: 'clicked ünïcode 💥', category: 'ui' });
  sdk.client.captureException(new TypeError('cannot read properties of undefined'), undefined, sdk.scope);
  sdk.client.captureMessage('disk full on /var', 'warning', undefined, sdk.scope);
  await sdk.close();
  catcher.close();
  return bodies;
}

beforeAll(async () => {
  captured.push(...(await captureSdkEnvelopes()), envelope(errorEvent('hand-written')));
  expect(captured.length).toBe(3);
  server = await startErrorsApi();
  const { dsn } = await setUp(server.url);
  const url = new URL(dsn);
  ingestUrl = `/api${url.pathname}/envelope/?sentry_key=${url.username}`;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

type Mutated = { body: Buffer; encoding?: string; how: string };

function mutations(original: Buffer): fc.Arbitrary<Mutated> {
  const text = original.toString('latin1');
  const at = fc.nat({ max: original.length - 1 });
  return fc.oneof(
    at.map((n) => ({ body: original.subarray(0, n), how: `truncated at ${n}` })),
    fc.array(fc.tuple(at, fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 8 }).map((flips) => {
      const body = Buffer.from(original);
      for (const [i, x] of flips) body[i] = (body[i] ?? 0) ^ x;
      return { body, how: `bit flips ${JSON.stringify(flips)}` };
    }),
    fc.constantFrom('attachment', 'transaction', 'session', 'client_report', 'nonsense', '', 'event').map((type) => ({
      body: Buffer.from(text.replace(/"type":"[a-z_]*"/g, `"type":"${type}"`), 'latin1'),
      how: `item types swapped to ${type}`,
    })),
    fc.constantFrom(0, 1, -1, 7, 1e9, 2 ** 53, '"12"', 'null', '1.5').map((n) => ({
      body: Buffer.from(text.replace(/"length":\d+/g, `"length":${n}`), 'latin1'),
      how: `length fields say ${n}`,
    })),
    fc
      .constantFrom('gzip', 'deflate', 'br', 'identity', 'x-bogus')
      .map((encoding) => ({ body: original, encoding, how: `claims ${encoding}, not compressed` })),
    at.map((n) => ({ body: gzipSync(original).subarray(0, n), encoding: 'gzip', how: `gzip truncated at ${n}` })),
    fc.constant({ body: gzipSync(gzipSync(original)), encoding: 'gzip', how: 'gzip twice' }),
    fc.constant({ body: Buffer.from(text.replace(/\n/g, '\r\n'), 'latin1'), how: 'CRLF lines' }),
  );
}

describe('errors-api ingest under broken envelopes', () => {
  it('answers every mutation without 5xx, keeps serving valid events and stores no half event', {
    timeout: 600_000,
  }, async () => {
    const property = fc.asyncProperty(
      fc.constantFrom(...captured.keys()).chain((i) => mutations(captured[i] as Buffer)),
      async (m) => {
        const res = await server.app.inject({
          method: 'POST',
          url: ingestUrl,
          headers: {
            'content-type': 'application/x-sentry-envelope',
            ...(m.encoding ? { 'content-encoding': m.encoding } : {}),
          },
          payload: m.body,
        });
        const problem = judge(res);
        if (problem) throw new Error(`${m.how}: ${problem}`);
        // Someone else's valid event still gets through while the server chews on broken ones.
        const valid = await server.app.inject({ method: 'POST', url: ingestUrl, payload: captured[0] });
        if (valid.statusCode !== 200)
          throw new Error(`${m.how}: a valid envelope after it answered ${valid.statusCode}`);
      },
    );
    await assertReplayable(property, fuzzSettings.runsPerRoute * 10, 'POST /api/:project_id/envelope/');

    await server.app.errors.writer.flush();
    const db = server.app.errors.db.sql;
    // No half event: every issue's count matches its stored events, and every payload reads back.
    const mismatched = await db.query(
      'SELECT i.id FROM issues i WHERE i.count <> (SELECT count(*) FROM events e WHERE e.issue_id = i.id)',
    );
    expect(mismatched).toEqual([]);
    const events = await db.query<{ payload: Uint8Array; event_id: string }>('SELECT payload, event_id FROM events');
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(typeof readPayload(e.payload, e.event_id)).toBe('object');
  });
});

/**
 * The embedder process on loopback, around its calls: deadlines and cancellation drop queued work
 * before it runs, SIGTERM lets calls in flight finish, and the caller's trace context reaches the
 * spans it exports.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Metadata } from '@grpc/grpc-js';
import { type ClientFor, createClient, GrpcStatus, hasGrpcCode } from '@trove/grpc-kit';
import { EmbedderService } from '@trove/proto/embedder/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmbedder, startEmbedder } from '../../../tests/support/processes.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function metric(httpUrl: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${httpUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/** Polls until `read` gives `want` (the server hears of a cancellation a moment after the client). */
async function eventually(read: () => Promise<number>, want: number): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const value = await read();
    if (value === want) return value;
    await sleep(100);
  }
  return read();
}

describe('embedder deadlines, cancellation and shutdown', () => {
  let embedder: RunningEmbedder;
  let client: ClientFor<typeof EmbedderService>;

  beforeAll(async () => {
    // A window of a full second holds the first call of a batch (at start, and after batches of
    // several calls): long enough for its caller to give up while it waits, without a slow model.
    embedder = await startEmbedder({
      EMBEDDER_BACKEND: 'hash',
      BATCH_WINDOW_MS: '1000',
      QUEUE_LENGTH: '2',
      SHUTDOWN_TIMEOUT_MS: '10000',
    });
    client = createClient(EmbedderService, embedder.target, { deadlineMs: 10_000 });
  });
  afterAll(async () => {
    client?.close();
    if (embedder?.child.exitCode === null) embedder.child.kill('SIGKILL');
  });

  const dropped = () => metric(embedder.httpUrl, 'embedder_dropped_calls_total');
  const embedded = () => metric(embedder.httpUrl, 'embedder_texts_total');

  it('answers DEADLINE_EXCEEDED and never runs the work of a call whose deadline passed in the queue', async () => {
    const err = await client.embed({ texts: ['too late'] }, { deadlineMs: 300 }).catch((e) => e);
    expect(hasGrpcCode(err, GrpcStatus.DEADLINE_EXCEEDED)).toBe(true);
    expect(await eventually(dropped, 1)).toBe(1);
    // Its place in the queue (QUEUE_LENGTH=2) is free again before its batch window ends: two
    // calls now both get in, and only their texts are embedded.
    const [a, b] = await Promise.all([client.embed({ texts: ['a'] }), client.embed({ texts: ['b'] })]);
    expect([a.vectors.length, b.vectors.length]).toEqual([1, 1]);
    expect(await embedded()).toBe(2);
    expect(
      await metric(embedder.httpUrl, 'grpc_server_handled_total', 'grpc_code="DEADLINE_EXCEEDED"'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('drops the work of a call its caller cancelled', async () => {
    const aborter = new AbortController();
    const call = client.embed({ texts: ['never mind'] }, { signal: aborter.signal }).catch((e) => e);
    await sleep(200);
    aborter.abort();
    expect(hasGrpcCode(await call, GrpcStatus.CANCELLED)).toBe(true);
    expect(await eventually(dropped, 2)).toBe(2);
    await sleep(1_200); // past the window: had the call stayed queued, its batch would have run by now
    expect(await embedded()).toBe(2);
  });

  it('runs the calls that are still wanted: one batch, dropped ones left out', async () => {
    const aborter = new AbortController();
    const gone = client.embed({ texts: ['gone'] }, { signal: aborter.signal }).catch((e) => e);
    const kept = client.embed({ texts: ['kept one', 'kept two'] });
    await sleep(200);
    aborter.abort();
    await gone;
    expect((await kept).vectors).toHaveLength(2);
    expect(await embedded()).toBe(4);
    expect(await dropped()).toBe(3);
  });

  it('on SIGTERM reports not ready, finishes the call in flight, refuses new ones and exits 0', async () => {
    // A fresh process: its first call is held for the window (the last batch here held one call,
    // and a lone caller is no longer held), so the call is still in flight when SIGTERM comes.
    await embedder.stop();
    embedder = await startEmbedder({ EMBEDDER_BACKEND: 'hash', BATCH_WINDOW_MS: '1000', SHUTDOWN_TIMEOUT_MS: '10000' });
    client.close();
    client = createClient(EmbedderService, embedder.target, { deadlineMs: 10_000 });
    const inFlight = client.embed({ texts: ['finish me', 'and me'] });
    await sleep(200); // the call now waits in the batch window
    embedder.child.kill('SIGTERM');
    await sleep(200);
    expect((await fetch(`${embedder.httpUrl}/readyz`)).status).toBe(503);
    const reply = await inFlight;
    expect(reply.vectors).toHaveLength(2);
    expect((await embedder.exit).code).toBe(0);
    const late = await client.embed({ texts: ['too late'] }, { deadlineMs: 2_000 }).catch((e) => e);
    expect(hasGrpcCode(late, GrpcStatus.UNAVAILABLE) || hasGrpcCode(late, GrpcStatus.DEADLINE_EXCEEDED)).toBe(true);
  });
});

describe('embedder tracing', () => {
  let collector: Server;
  const exported: string[] = [];

  beforeAll(async () => {
    // A stand-in OTLP/HTTP collector that keeps the JSON it is sent.
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/v1/traces') exported.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => collector.close(resolve)));

  it("exports each call's span as a child of the caller's span from traceparent metadata", async () => {
    const { port } = collector.address() as AddressInfo;
    const embedder = await startEmbedder({
      EMBEDDER_BACKEND: 'hash',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    });
    const client = createClient(EmbedderService, embedder.target, { deadlineMs: 10_000 });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentSpanId = '00f067aa0ba902b7';
    const metadata = new Metadata();
    metadata.set('traceparent', `00-${traceId}-${parentSpanId}-01`);
    try {
      expect((await client.embed({ texts: ['traced'] }, { metadata })).vectors).toHaveLength(1);
    } finally {
      client.close();
      await embedder.stop(); // the shutdown flushes the spans
    }
    const spans = exported
      .flatMap((body) => JSON.parse(body).resourceSpans ?? [])
      .flatMap((r: { scopeSpans: { spans: unknown[] }[] }) => r.scopeSpans.flatMap((s) => s.spans)) as {
      name: string;
      traceId: string;
      parentSpanId: string;
      kind: number;
    }[];
    const embed = spans.find((s) => s.name === 'trove.embedder.v1.EmbedderService/Embed');
    expect(embed, `spans exported: ${spans.map((s) => s.name).join(', ')}`).toBeDefined();
    expect(embed?.traceId).toBe(traceId);
    expect(embed?.parentSpanId).toBe(parentSpanId);
    expect(embed?.kind).toBe(2); // SERVER
  });
});

/**
 * What the tests of where tracing runs share: a slow picture, HTTP requests whose client can hang
 * up, and the two ways to run vectorize-api (pool in process, or vectorizer-worker processes).
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ClientFor, createClient } from '@trove/grpc-kit';
import { TracerService } from '@trove/proto/vectorize/v1';
import type { RgbaImage } from '@trove/vectorize';
import type { FastifyInstance } from 'fastify';
import { metricValue, type RunningWorker, startVectorizerWorker } from '../../../tests/support/vectorizer-worker.ts';
import { buildApp, encode, multipart } from './helpers.ts';

/** Random colours everywhere: the spline engine needs seconds for this, so a job stays running. */
export function noise(size: number, seed = 7): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  let state = seed;
  for (let i = 0; i < data.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    data[i] = i % 4 === 3 ? 255 : state >>> 24;
  }
  return { width: size, height: size, data };
}

export const slowPng = () => encode(noise(500), 'png');

export interface ListeningApp {
  app: FastifyInstance;
  url: string;
  port: number;
}

export async function listen(app: FastifyInstance): Promise<ListeningApp> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { app, port, url: `http://127.0.0.1:${port}` };
}

/**
 * POST /v1/vectorize on a raw socket: `hangUp()` closes the connection the way a client that gives
 * up does, before any answer.
 */
export async function sendVectorize(port: number, fields: Record<string, string>, png: Buffer) {
  const body = await multipart(fields, { bytes: png });
  const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/vectorize', headers: body.headers });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  answer.catch(() => {});
  req.end(body.payload);
  return { answer, hangUp: () => req.destroy() };
}

/** Where jobs run in one way of running vectorize-api, and what it reports about them. */
export interface TracingSetup {
  name: string;
  /** vectorize-api (listening on loopback) with these settings, and tracing as this setup does it. */
  start(env?: Record<string, string>): Promise<ListeningApp>;
  /** Jobs running and waiting now, read where they run. */
  load(): Promise<{ busy: number; queued: number }>;
  /** A counter of the pool's /metrics (summed over the labels given), read where the pool runs. */
  poolMetric(name: string, labels?: Record<string, string>): Promise<number>;
  close(): Promise<void>;
}

/** The pool inside vectorize-api: one thread, one place in the queue. */
export function inProcessSetup(): TracingSetup {
  const apps: ListeningApp[] = [];
  return {
    name: 'the in-process pool',
    async start(env = {}) {
      const started = await listen(await buildApp({ TRACE_WORKERS: '1', TRACE_QUEUE_LENGTH: '1', ...env }));
      apps.push(started);
      return started;
    },
    async load() {
      const health = (await (await fetch(`${apps[0]?.url}/v1/health`)).json()) as {
        tracing: { busy: number; queued: number };
      };
      const { busy, queued } = health.tracing;
      return { busy, queued };
    },
    // Each app has its own pool: counted over all of them, as one worker counts for all its callers.
    async poolMetric(name, labels) {
      let sum = 0;
      for (const { url } of apps) sum += await metricValue(url, name, labels);
      return sum;
    },
    async close() {
      for (const { app } of apps.splice(0)) await app.close();
    },
  };
}

/** vectorize-api with VECTORIZER_WORKER_URL on one vectorizer-worker process: one thread, one place in the queue. */
export function remoteSetup(): TracingSetup {
  const apps: ListeningApp[] = [];
  let worker: RunningWorker | undefined;
  let client: ClientFor<typeof TracerService> | undefined;
  return {
    name: 'a vectorizer-worker process over gRPC',
    async start(env = {}) {
      worker ??= await startVectorizerWorker({ TRACE_THREADS: '1', QUEUE_LENGTH: '1' });
      client ??= createClient(TracerService, worker.target, { deadlineMs: 10_000 });
      const started = await listen(await buildApp({ VECTORIZER_WORKER_URL: worker.target, ...env }));
      apps.push(started);
      return started;
    },
    async load() {
      const capacity = await (client as ClientFor<typeof TracerService>).getCapacity({});
      return { busy: capacity.inFlight, queued: capacity.queued };
    },
    poolMetric: (name, labels) => metricValue(worker?.httpUrl ?? '', name, labels),
    async close() {
      for (const { app } of apps.splice(0)) await app.close();
      client?.close();
      await worker?.kill();
    },
  };
}

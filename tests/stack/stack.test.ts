/**
 * The whole stack as separate processes on one machine, on the real Postgres and Redis: the
 * embedder, two memory-api replicas embedding through it, two vectorizer workers and vectorize-api
 * tracing on them, and errors-api, each
 * started as a user or cluster starts it (the migrate command first), and driven only by real
 * clients: the MCP SDK, @sentry/node, HTTP multipart uploads and Prometheus text from every
 * /metrics. With TROVE_STACK_IMAGES=<tag> the same tests run against the built images instead
 * (CI does both).
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUp } from '../../apps/errors-api/test/support/harness.ts';
import { sentryClient } from '../../apps/errors-api/test/support/sentry.ts';
import { missing } from '../support/requirements.ts';
import {
  attach,
  COMPOSE_PROJECT,
  composeRequirement,
  IMAGE_TAG,
  imagesRequirement,
  type Launched,
  launch,
  MODE,
  migrate,
} from './launch.ts';
import { parsePrometheusText } from './prometheus-text.ts';

const SERVER_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const skip = COMPOSE_PROJECT
  ? missing(composeRequirement)
  : missing('postgres', 'redis', ...(IMAGE_TAG ? [imagesRequirement] : []));

const suffix = randomUUID().slice(0, 8);
const databases = { memory: `trove_stack_memory_${suffix}`, errors: `trove_stack_errors_${suffix}` };
function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL as string);
  url.pathname = `/${name}`;
  return url.toString();
}
async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(skip)(`the whole stack as ${MODE}${IMAGE_TAG ? ` (images :${IMAGE_TAG})` : ''}`, () => {
  const running: Launched[] = [];
  let embedder: Launched;
  let memoryA: Launched;
  let memoryB: Launched;
  let vectorize: Launched;
  let errors: Launched;

  beforeAll(async () => {
    if (COMPOSE_PROJECT) {
      // compose.yaml made the databases, ran the migrate jobs and started every service.
      embedder = await attach('embedder', 'embedder', 8770, true);
      const workers = await Promise.all([
        attach('vectorizer-worker-1', 'worker-1', 8771, true),
        attach('vectorizer-worker-2', 'worker-2', 8771, true),
      ]);
      [memoryA, memoryB, vectorize, errors] = await Promise.all([
        attach('memory-api', 'memory-a', 8767),
        attach('memory-api-2', 'memory-b', 8767),
        attach('vectorize-api', 'vectorize', 8768),
        attach('errors-api', 'errors', 8769),
      ]);
      running.push(embedder, ...workers, memoryA, memoryB, vectorize, errors);
      return;
    }
    for (const name of Object.values(databases)) await admin(`CREATE DATABASE ${name}`);
    await migrate('memory-api', databaseUrl(databases.memory));
    await migrate('errors-api', databaseUrl(databases.errors));
    // From the sources, the GloVe cache the other test files build once is reused; images carry their own.
    const cache: Record<string, string> = IMAGE_TAG
      ? {}
      : { EMBEDDINGS_CACHE_DIR: join(tmpdir(), 'trove-embeddings-test-cache') };
    embedder = await launch('embedder', 'embedder', { EMBEDDER_BACKEND: 'glove', ...cache });
    running.push(embedder);
    const memoryEnv = {
      MIGRATE_ON_START: 'verify',
      DATABASE_URL: databaseUrl(databases.memory),
      EMBEDDER_URL: `dns:///${embedder.target}`,
    };
    const errorsEnv = {
      MIGRATE_ON_START: 'verify',
      DATABASE_URL: databaseUrl(databases.errors),
      REDIS_URL: REDIS_URL as string,
      REDIS_PREFIX: `trove-stack-${suffix}:`,
    };
    const workers = await Promise.all([
      launch('vectorizer-worker', 'worker-1', { TRACE_THREADS: '1' }),
      launch('vectorizer-worker', 'worker-2', { TRACE_THREADS: '1' }),
    ]);
    running.push(...workers);
    const started = await Promise.all([
      launch('memory-api', 'memory-a', memoryEnv),
      launch('memory-api', 'memory-b', memoryEnv),
      launch('vectorize-api', 'vectorize', { VECTORIZER_WORKER_URL: workers.map((w) => w.target).join(',') }),
      launch('errors-api', 'errors', errorsEnv),
    ]);
    running.push(...started);
    [memoryA, memoryB, vectorize, errors] = started as [Launched, Launched, Launched, Launched];
  }, 300_000);

  afterAll(async () => {
    await Promise.all(running.map((r) => r.stop()));
    if (COMPOSE_PROJECT) return;
    for (const name of Object.values(databases)) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }, 60_000);

  async function mcp(target: Launched): Promise<McpClient> {
    const client = new McpClient({ name: 'stack-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${target.url}/mcp`)));
    return client;
  }
  async function tool(client: McpClient, name: string, args: Record<string, unknown>) {
    const answer = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(answer.isError ?? false, answer.content[0]?.text).toBe(false);
    return JSON.parse(answer.content[0]?.text ?? 'null');
  }

  it('remembers through one memory-api replica over MCP and recalls through the other', async () => {
    const [a, b] = await Promise.all([mcp(memoryA), mcp(memoryB)]);
    try {
      const namespace = `stack-${suffix}`;
      const stored = await tool(a, 'remember', {
        content: 'The staging cluster rotates its database passwords every Tuesday at noon',
        namespace,
      });
      expect(stored.id).toBeTruthy();
      // Replica b never saw the write: it finds the memory in the shared database.
      const found = (await tool(b, 'recall', { query: 'when are the database passwords rotated', namespace })) as {
        id: string;
      }[];
      expect(found.map((r) => r.id)).toEqual([stored.id]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('takes errors from @sentry/node and groups them into an issue', async () => {
    const { api, dsn, projectSlug } = await setUp(errors.url);
    const sdk = sentryClient(dsn);
    for (let i = 0; i < 2; i++) sdk.scope.captureException(new Error(`stack test failure ${suffix}`));
    await sdk.flush();
    expect(sdk.responses.map((r) => r.statusCode)).toEqual([200, 200]);
    const issues = (await api.call('GET', `/api/0/projects/${projectSlug}/issues`)).json.data as {
      title: string;
      count: number;
    }[];
    expect(issues.find((i) => i.title === `Error: stack test failure ${suffix}`)?.count).toBe(2);
  });

  it('traces uploaded images to SVG on both vectorizer workers', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#ffffff' } })
      .composite([
        { input: { create: { width: 24, height: 24, channels: 3, background: '#d01020' } }, left: 8, top: 8 },
      ])
      .png()
      .toBuffer();
    for (let i = 0; i < 4; i++) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png)]), 'square.png');
      const res = await fetch(`${vectorize.url}/v1/vectorize`, { method: 'POST', body: form });
      expect(res.status).toBe(200);
      const svg = await res.text();
      expect(svg).toMatch(/<svg[\s>]/);
      expect(svg).toMatch(/<path /);
    }
    // Round robin over the two: each traced some of them.
    for (const worker of running.filter((r) => r.name.startsWith('worker-'))) {
      const samples = parsePrometheusText(await (await fetch(`${worker.url}/metrics`)).text());
      const traced = samples
        .filter((s) => s.name === 'grpc_server_handled_total' && s.labels.grpc_method === 'Trace')
        .reduce((sum, s) => sum + s.value, 0);
      expect(traced, worker.name).toBeGreaterThan(0);
    }
  });

  it('follows one request id into the logs of the replica that served it and of the embedder', async () => {
    const id = `stack-${suffix}-trace`;
    const res = await fetch(`${memoryA.url}/remember`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({ content: 'Request ids are kept across services', namespace: `stack-${suffix}` }),
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('x-request-id')).toBe(id);
    const lines = (await memoryA.logs()).split('\n').filter((l) => l.includes(id));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.map((l) => JSON.parse(l).reqId)).toContain(id);
    expect(await memoryB.logs()).not.toContain(id);
    const embedded = (await embedder.logs())
      .split('\n')
      .filter((l) => l.includes(id))
      .map((l) => JSON.parse(l));
    expect(embedded.map((l) => [l.requestId, l.grpcMethod, l.grpcCode])).toContainEqual([id, 'Embed', 'OK']);
  });

  it('serves Prometheus text on every /metrics, counting the requests each process answered', async () => {
    for (const target of running) {
      const res = await fetch(`${target.url}/metrics`);
      expect(res.status, target.name).toBe(200);
      const samples = parsePrometheusText(await res.text());
      // A gRPC backend counts its calls; an API its HTTP requests.
      const counter = target.target ? 'grpc_server_handled_total' : 'http_requests_total';
      const served = samples.filter((s) => s.name === counter).reduce((sum, s) => sum + s.value, 0);
      expect(served, `${target.name} ${counter}`).toBeGreaterThan(0);
      expect(
        samples.some((s) => s.name === 'process_resident_memory_bytes'),
        target.name,
      ).toBe(true);
    }
  });
});

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@trove/data';
import { type Embedder, GloveEmbedder, GrpcEmbedder, HashEmbedder, type VectorStore } from '@trove/embeddings';
import { createLogger } from '@trove/service-kit';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { startEmbedder } from '../../../tests/support/processes.ts';
import { buildMemoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';

export const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
export const postgresUrl = process.env.TEST_DATABASE_URL;
/** Shared with packages/embeddings' tests: the compact GloVe file is built once per machine. */
export const embeddingsCacheDir = join(tmpdir(), 'trove-embeddings-test-cache');

/**
 * TEST_EMBEDDER=grpc runs the suites against real embedder processes (apps/embedder on loopback,
 * one per backend, started on first use) instead of the models in process: same vectors expected.
 */
const overGrpc = process.env.TEST_EMBEDDER === 'grpc';
const remote = new Map<string, Promise<Embedder>>();
function remoteEmbedder(backend: 'glove' | 'hash'): Promise<Embedder> {
  let embedder = remote.get(backend);
  if (!embedder) {
    embedder = startEmbedder({ EMBEDDER_BACKEND: backend, EMBEDDINGS_CACHE_DIR: embeddingsCacheDir }).then(
      (running) => {
        process.once('exit', () => running.child.kill('SIGKILL'));
        return GrpcEmbedder.connect({ target: running.target, deadlineMs: 30_000 });
      },
    );
    remote.set(backend, embedder);
  }
  return embedder;
}

let glove: Promise<Embedder> | undefined;
export function sharedGlove(): Promise<Embedder> {
  glove ??= overGrpc ? remoteEmbedder('glove') : GloveEmbedder.open({ cacheDir: embeddingsCacheDir });
  return glove;
}

/** The embedder of a test app that names none: hashing, in process or over gRPC. */
export async function defaultTestEmbedder(): Promise<Embedder> {
  return overGrpc ? remoteEmbedder('hash') : new HashEmbedder(64);
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are free-form JSON that tests index into
type JsonBody = any;

export interface TestApp {
  app: FastifyInstance;
  /** JSON request helper: returns status and parsed body. */
  call(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: JsonBody }>;
  close(): Promise<void>;
}

export async function openTestApp(
  options: {
    env?: Record<string, string>;
    embedder?: Embedder;
    database?: 'pglite' | 'postgres';
    /** A vector store shared with other test apps (the shared-index path, as with Qdrant). */
    sharedVectors?: VectorStore;
  } = {},
): Promise<TestApp> {
  let throwaway: ThrowawayDatabase | undefined;
  const env: Record<string, string> = { DATA_DIR: 'memory://', EMBEDDER: 'hash', ...options.env };
  if (options.database === 'postgres') {
    throwaway = await createThrowawayDatabase(postgresUrl as string, 'memory');
    env.DATABASE_URL = throwaway.url;
    env.MIGRATE_ON_START = 'apply';
  }
  const embedder = options.embedder ?? (await defaultTestEmbedder());
  const app = await buildMemoryApp(readConfig(env), logger, embedder, options.sharedVectors);
  return {
    app,
    async call(method, url, body, token) {
      const res = await app.inject({
        method,
        url,
        ...(body === undefined ? {} : { payload: body as object }),
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      let parsed: unknown = res.body;
      try {
        parsed = res.json();
      } catch {}
      return { status: res.statusCode, body: parsed };
    },
    async close() {
      await app.close();
      await throwaway?.drop();
    },
  };
}

export const FULL_TOKEN = 'full-access-token-0123456789';
export const READ_TOKEN = 'read-only-token-0123456789ab';

/**
 * An app with one full and one read-only token, opened before the file's tests and closed after
 * them. `call` sends the full token unless given another; `total` counts memories; `sql` reads
 * through the app's Prisma client.
 */
export function appWithTokens() {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await openTestApp({ env: { AUTH_TOKENS: FULL_TOKEN, READ_ONLY_TOKENS: READ_TOKEN } });
  });
  afterAll(() => t?.close());
  const app = () => t as TestApp;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, token = FULL_TOKEN) =>
    app().call(method, url, body, token);
  return {
    app,
    call,
    total: async () => (await call('GET', '/stats')).body.total as number,
    sql: <T>(text: string, ...params: unknown[]) => app().app.memoryStore.prisma.$queryRawUnsafe<T[]>(text, ...params),
  };
}

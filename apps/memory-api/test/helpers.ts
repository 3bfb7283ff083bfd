import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
 * TEST_EMBEDDER=onnx puts a transformer model where hashing was (EMBEDDER=onnx in process: the
 * BERT-shaped test model of @trove/embeddings, written by the tests, nothing downloaded, whose
 * word embeddings are the hashing embedder's word vectors, so that texts sharing words are alike
 * as with hashing); TEST_EMBEDDER=onnx-grpc serves it from embedder processes
 * (EMBEDDER_BACKEND=onnx). GloVe stays GloVe in both: the suites that test meaning need GloVe's.
 */
const mode = process.env.TEST_EMBEDDER ?? '';

/**
 * Runs `cleanup` when this test worker ends. Vitest ends a worker with SIGTERM, whose default
 * action skips 'exit' handlers; with test files sharing their worker (isolate: false in
 * vitest.config.ts), the embedder processes and model directories kept for the worker's life were
 * left behind after the run. So SIGTERM exits the worker, which runs them.
 */
function atWorkerEnd(cleanup: () => void): void {
  process.once('exit', cleanup);
  if (process.listenerCount('SIGTERM') === 0) process.once('SIGTERM', () => process.exit(143));
}
const overGrpc = mode === 'grpc' || mode === 'onnx-grpc';
const onnx = mode === 'onnx' || mode === 'onnx-grpc';
let onnxModelDir: Promise<string> | undefined;
function testModelDir(): Promise<string> {
  onnxModelDir ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trove-memory-onnx-'));
    atWorkerEnd(() => rmSync(dir, { recursive: true, force: true }));
    const { writeTestModel } = await import('@trove/embeddings/onnx-test-model');
    // 64 dimensions, as the hashing embedder it stands in for (suites that hand in a vector store
    // size it so), and the embedder bench's 10,000 common words as whole tokens: with only the
    // ~250 test words, most texts were spelt letter by letter and unrelated ones scored 0.8-0.9.
    const words = readFileSync(new URL('../../embedder/bench/words.txt', import.meta.url), 'utf8').split('\n');
    await writeTestModel(dir, { shape: { hidden: 64, intermediate: 128 }, words });
    return dir;
  })();
  return onnxModelDir;
}
const remote = new Map<string, Promise<Embedder>>();
function remoteEmbedder(backend: 'glove' | 'hash' | 'onnx'): Promise<Embedder> {
  let embedder = remote.get(backend);
  if (!embedder) {
    embedder = (backend === 'onnx' ? testModelDir() : Promise.resolve(undefined))
      .then((dir) =>
        startEmbedder({
          EMBEDDER_BACKEND: backend,
          EMBEDDINGS_CACHE_DIR: embeddingsCacheDir,
          ...(dir ? { ONNX_MODEL_DIR: dir } : {}),
        }),
      )
      .then((running) => {
        atWorkerEnd(() => running.child.kill('SIGKILL'));
        return GrpcEmbedder.connect({ target: running.target, deadlineMs: 30_000 });
      });
    remote.set(backend, embedder);
  }
  return embedder;
}
let inProcessOnnx: Promise<Embedder> | undefined;
function onnxEmbedder(): Promise<Embedder> {
  if (overGrpc) return remoteEmbedder('onnx');
  inProcessOnnx ??= testModelDir().then(async (dir) => {
    const { OnnxEmbedder } = await import('@trove/embeddings/onnx');
    return OnnxEmbedder.open({ dir, device: 'cpu', threads: 1, log: () => {} });
  });
  return inProcessOnnx;
}

let glove: Promise<Embedder> | undefined;
export function sharedGlove(): Promise<Embedder> {
  glove ??= overGrpc ? remoteEmbedder('glove') : GloveEmbedder.open({ cacheDir: embeddingsCacheDir });
  return glove;
}

/** The embedder of a test app that names none: hashing (the onnx test model), in process or over gRPC. */
export async function defaultTestEmbedder(): Promise<Embedder> {
  if (onnx) return onnxEmbedder();
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
    sql: <T>(text: string, ...params: unknown[]) =>
      app().app.memoryStore.db.prisma.$queryRawUnsafe<T[]>(text, ...params),
  };
}

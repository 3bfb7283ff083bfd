import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@trove/data';
import { type Embedder, GloveEmbedder, HashEmbedder } from '@trove/embeddings';
import { createLogger } from '@trove/service-kit';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildMemoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';

export const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
export const postgresUrl = process.env.TEST_DATABASE_URL;
/** Shared with packages/embeddings' tests: the compact GloVe file is built once per machine. */
export const embeddingsCacheDir = join(tmpdir(), 'trove-embeddings-test-cache');

let glove: Promise<GloveEmbedder> | undefined;
export function sharedGlove(): Promise<GloveEmbedder> {
  glove ??= GloveEmbedder.open({ cacheDir: embeddingsCacheDir });
  return glove;
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
  options: { env?: Record<string, string>; embedder?: Embedder; database?: 'pglite' | 'postgres' } = {},
): Promise<TestApp> {
  let throwaway: ThrowawayDatabase | undefined;
  const env: Record<string, string> = { DATA_DIR: 'memory://', EMBEDDER: 'hash', ...options.env };
  if (options.database === 'postgres') {
    throwaway = await createThrowawayDatabase(postgresUrl as string, 'memory');
    env.DATABASE_URL = throwaway.url;
    env.MIGRATE_ON_START = 'apply';
  }
  const app = await buildMemoryApp(readConfig(env), logger, options.embedder ?? new HashEmbedder(64));
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

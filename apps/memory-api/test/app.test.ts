import { HashEmbedder } from '@trove/embeddings';
import { createLogger, createServer } from '@trove/service-kit';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMemoryApp, memoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { openMemoryDatabase } from '../src/db.ts';

const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('memory-api on embedded defaults', () => {
  it('answers /health with status and version, and is ready once its database is', async () => {
    app = await buildMemoryApp(readConfig({ DATA_DIR: 'memory://', EMBEDDER: 'hash' }), logger);
    const health = await app.inject('/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({
      status: 'ok',
      version: '0.1.0',
      memories: 0,
      namespaces: 0,
      api_versions: ['v1'],
      api_latest: 'v1',
    });
    const ready = await app.inject('/readyz');
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    const metrics = await app.inject('/metrics');
    expect(metrics.body).toContain(
      'http_requests_total{method="GET",route="/health",status_code="200",service="memory-api"} 1',
    );
  });

  it('answers 503 on /health and /readyz when its database has gone', async () => {
    // The plugin registered directly, with dependencies the test controls.
    const config = readConfig({ DATA_DIR: 'memory://', EMBEDDER: 'hash' });
    const db = await openMemoryDatabase(config);
    app = createServer({ logger });
    await app.register(memoryApp, { config, db, embedder: new HashEmbedder(64) });
    expect((await app.inject('/health')).statusCode).toBe(200);
    await db.close();
    const health = await app.inject('/health');
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ status: 'unavailable', version: '0.1.0' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks).toEqual({ database: 'failed' });
  });
});

describe('memory-api and Redis', () => {
  it('neither needs nor checks Redis: ready although REDIS_URL names a dead server', async () => {
    app = await buildMemoryApp(
      readConfig({ DATA_DIR: 'memory://', EMBEDDER: 'hash', REDIS_URL: 'redis://127.0.0.1:1' }),
      logger,
    );
    const res = await app.inject('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
  });
});

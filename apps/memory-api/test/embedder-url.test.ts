import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningEmbedder, startEmbedder } from '../../../tests/support/processes.ts';
import { buildMemoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { logger } from './helpers.ts';

describe('memory-api with EMBEDDER_URL: embeds through a real embedder process', () => {
  let embedder: RunningEmbedder;
  let app: Awaited<ReturnType<typeof buildMemoryApp>>;

  beforeAll(async () => {
    embedder = await startEmbedder({ EMBEDDER_BACKEND: 'hash', LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    const config = readConfig({
      DATA_DIR: 'memory://',
      EMBEDDER_URL: `dns:///${embedder.target}`,
      EMBEDDER_DEADLINE_MS: '2000',
    });
    app = await buildMemoryApp(config, logger);
  });
  afterAll(async () => {
    await app?.close();
    await embedder?.stop();
  });

  it('stores and recalls with vectors from the embedder, and reports it on /readyz', async () => {
    const stored = await app.inject({
      method: 'POST',
      url: '/remember',
      payload: { content: 'the red apple fell from the tree' },
    });
    expect(stored.statusCode).toBeLessThan(300);
    const recall = await app.inject({ method: 'POST', url: '/recall', payload: { query: 'red apple' } });
    expect(recall.statusCode).toBe(200);
    expect(JSON.stringify(recall.json())).toContain('red apple');
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.embedder).toBe('ok');
  });

  it("carries the HTTP request's id into the embedder's calls and logs", async () => {
    const requestId = `trace-${Date.now()}`;
    const stored = await app.inject({
      method: 'POST',
      url: '/remember',
      headers: { 'x-request-id': requestId },
      payload: { content: 'request ids follow a write into the embedder' },
    });
    expect(stored.statusCode).toBeLessThan(300);
    // The embedder logs a call as it answers it, but the line travels through its buffered log
    // stream and a pipe, so it can reach this process after the HTTP reply (seen once on Node 24
    // in CI): wait for it, within a bound.
    const lines = await vi.waitFor(
      () => {
        const found = embedder
          .output()
          .split('\n')
          .filter((l) => l.includes(requestId))
          .map((l) => JSON.parse(l));
        expect(found.length).toBeGreaterThan(0);
        return found;
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(lines[0]).toMatchObject({ requestId, grpcMethod: 'Embed', grpcCode: 'OK', msg: 'gRPC call completed' });
  });

  it('is not ready while the embedder is down', async () => {
    await embedder.stop();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.embedder).toBe('failed');
  });
});

import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { badRequest, createServer, HttpError, serviceKit, tooManyRequests } from '../src/index.ts';

/** An app's own refusal, which the kit knows nothing of: mapped through `mapError`. */
class Refusal extends Error {}

let app: FastifyInstance;
let dependencyUp = true;

async function build(): Promise<FastifyInstance> {
  const server = createServer({ logger: pino({ level: 'silent' }), bodyLimit: 1024 });
  await server.register(serviceKit, {
    service: 'demo',
    checks: {
      database: async () => {
        if (!dependencyUp) throw new Error('connection refused to secret-host:5432');
      },
    },
    mapError: (error) => (error instanceof Refusal ? new HttpError(409, error.message) : undefined),
  });
  server.get('/conflict', async () => {
    throw new Refusal('the name is taken');
  });
  server.get('/items/:id', async (request) => ({ id: (request.params as { id: string }).id }));
  server.post(
    '/items',
    {
      schema: {
        body: { type: 'object', required: ['name'], properties: { limit: { type: 'integer', maximum: 100 } } },
      },
    },
    async () => ({ ok: true }),
  );
  // A schema that names its fields: anything else is a mistake to report, not to drop.
  server.post(
    '/named',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            tags: { type: 'object', properties: {}, additionalProperties: false },
          },
          additionalProperties: false,
        },
        querystring: { type: 'object', properties: { dry_run: { type: 'boolean' } }, additionalProperties: false },
      },
    },
    async (request) => ({ body: request.body, query: request.query }),
  );
  server.get('/refuse', async () => {
    throw badRequest('limit must be a whole number');
  });
  server.get('/slow-down', async () => {
    throw tooManyRequests('too many requests', 2.2);
  });
  server.get('/crash', async () => {
    throw new Error('password=hunter2 leaked from a bug');
  });
  await server.ready();
  return server;
}

afterEach(async () => {
  dependencyUp = true;
  await app?.close();
});

describe('service kit', () => {
  it('gives every response a request id and keeps a well-formed incoming one', async () => {
    app = await build();
    const fresh = await app.inject('/items/1');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.inject({ url: '/items/1', headers: { 'x-request-id': 'trace-abc.1' } });
    expect(kept.headers['x-request-id']).toBe('trace-abc.1');
    const replaced = await app.inject({ url: '/items/1', headers: { 'x-request-id': 'bad id<script>' } });
    expect(replaced.headers['x-request-id']).not.toBe('bad id<script>');
  });

  it('refuses a field or query parameter a strict schema does not name, naming it, where Fastify would drop it', async () => {
    app = await build();
    const cases = [
      ['/named', { name: 'a', slugg: 'b' }, 'body.slugg is not a field of this request; accepted fields: name, tags'],
      ['/named', { tags: { x: 1 } }, 'body.tags.x is not a field of this request; body.tags takes no fields'],
      ['/named?dryrun=1', {}, 'querystring.dryrun is not a field of this request; accepted fields: dry_run'],
    ] as const;
    for (const [url, payload, message] of cases) {
      const refused = await app.inject({ method: 'POST', url, payload });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json(), url).toEqual({ error: message });
    }
    const named = await app.inject({ method: 'POST', url: '/named?dry_run=true', payload: { name: 'a', tags: {} } });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toEqual({ body: { name: 'a', tags: {} }, query: { dry_run: true } });
  });

  it('answers client errors in the spec shape with a message that says what to fix', async () => {
    app = await build();
    const refused = await app.inject('/refuse');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'limit must be a whole number' });

    const invalid = await app.inject({ method: 'POST', url: '/items', payload: { limit: 500 } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toMatch(/^body/);
    expect(invalid.json().error).toContain('name');

    const tooBig = await app.inject({ method: 'POST', url: '/items', payload: { name: 'x'.repeat(2000) } });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toHaveProperty('error');

    const badJson = await app.inject({
      method: 'POST',
      url: '/items',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(Object.keys(badJson.json())).toEqual(['error']);

    const wrongType = await app.inject({
      method: 'POST',
      url: '/items',
      headers: { 'content-type': 'application/xml' },
      payload: '<x/>',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toEqual({ error: 'content-type application/xml is not accepted: send application/json' });
    const asText = await app.inject({
      method: 'POST',
      url: '/items',
      headers: { 'content-type': 'text/plain' },
      payload: '{"name":"x"}',
    });
    expect(asText.statusCode).toBe(415);
    expect(asText.json().error).toMatch(/text\/plain .*send application\/json/);
    const untyped = await app.inject({ method: 'POST', url: '/items', payload: Buffer.from('{"name":"x"}') });
    expect(untyped.statusCode).toBe(415);
    expect(untyped.json()).toEqual({ error: 'the request has a body but no content-type: send application/json' });

    const missing = await app.inject('/nowhere?x=1');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'no route for GET /nowhere' });
  });

  it("answers an app's own errors as mapError maps them, in the kit's error handler", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }) => warnings.push(w.code ?? w.name);
    process.on('warning', onWarning);
    try {
      app = await build();
    } finally {
      process.off('warning', onWarning);
    }
    const res = await app.inject('/conflict');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'the name is taken' });
    // No second error handler on the kit's scope (Fastify's FSTWRN004).
    expect(warnings).not.toContain('FSTWRN004');
  });

  it('sets Retry-After on 429', async () => {
    app = await build();
    const res = await app.inject('/slow-down');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('3');
  });

  it('answers an unexpected error with a 500 that leaks nothing', async () => {
    app = await build();
    const res = await app.inject('/crash');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal server error' });
    expect(res.body).not.toContain('hunter2');
  });

  it('reports liveness, and readiness from the dependency checks', async () => {
    app = await build();
    expect((await app.inject('/livez')).json()).toEqual({ status: 'ok' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });

    dependencyUp = false;
    const down = await app.inject('/readyz');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'not ready', checks: { database: 'failed' } });
    expect(down.body).not.toContain('secret-host');
  });

  it('stops being ready once shutdown begins', async () => {
    app = await build();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    expect((await app.readiness.report(app.log)).ready).toBe(true);
    const closing = app.close();
    // preClose hooks have run by the time close() first yields.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await app.readiness.report(app.log)).toEqual({
      ready: false,
      checks: { database: 'ok', shutdown: 'draining' },
    });
    await closing;
    await expect(fetch(`http://127.0.0.1:${port}/livez`)).rejects.toThrow();
  });

  it('counts and times requests by route template and status', async () => {
    app = await build();
    await app.inject('/items/1');
    await app.inject('/items/2');
    await app.inject('/refuse');
    await app.inject('/missing/42');
    const res = await app.inject('/metrics');
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toContain('http_requests_total{method="GET",route="/items/:id",status_code="200",service="demo"} 2');
    expect(text).toContain('http_requests_total{method="GET",route="/refuse",status_code="400",service="demo"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="unmatched",status_code="404",service="demo"} 1');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{service="demo",method="GET",route="\/items\/:id",status_code="200"\} 2/,
    );
    expect(text).not.toContain('/items/1');
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });
});

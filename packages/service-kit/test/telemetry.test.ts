import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, serviceKit } from '../src/index.ts';
import { startTelemetry } from '../src/telemetry.ts';

/** A stand-in OTLP/HTTP collector on loopback that keeps what it is sent. */
let collector: Server;
const received: { path: string; body: string }[] = [];

beforeAll(async () => {
  collector = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
});

afterAll(() => new Promise((resolve) => collector.close(resolve)));

describe('tracing', () => {
  it('exports a span per request, named by route, to the OTLP endpoint', async () => {
    const { port } = collector.address() as AddressInfo;
    const telemetry = startTelemetry({
      endpoint: `http://127.0.0.1:${port}/`,
      serviceName: 'demo-traced',
      version: '1',
    });
    const app = createServer({ logger: pino({ level: 'silent' }) });
    await app.register(serviceKit, { service: 'demo' });
    app.get('/things/:id', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const appPort = (app.server.address() as AddressInfo).port;
    expect((await fetch(`http://127.0.0.1:${appPort}/things/7`)).status).toBe(200);
    await fetch(`http://127.0.0.1:${appPort}/readyz`);
    await app.close();
    await telemetry.shutdown(); // flushes the batch

    const traces = received.filter((r) => r.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    const exported = traces.map((t) => t.body).join('\n');
    expect(exported).toContain('demo-traced');
    expect(exported).toContain('/things/:id');
    // Probes are not traced.
    expect(exported).not.toContain('/readyz');
  });
});

import { AUTO_PIXEL_EXACT_MAX_COLORS, vectorize } from '@trove/vectorize';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, encode, flatTestImage, logger, postForm, untilReady } from './helpers.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp();
});
afterAll(() => app.close());

describe('vectorize-api service endpoints', () => {
  it('answers /v1/health with status and version, and serves Prometheus metrics', async () => {
    const health = await app.inject('/v1/health');
    expect(health.statusCode).toBe(200);
    const tracing = { mode: 'in-process', threads: 1, queue_length: 16, busy: 0, queued: 0, spare_capacity: 17 };
    expect(health.json()).toEqual({ status: 'ok', version: '0.1.0', tracing });
    expect((await app.inject('/readyz')).json()).toEqual({
      status: 'ready',
      checks: { tracer: 'ok', 'warm-up': 'ok' },
      details: { tracer: tracing },
    });
    const metrics = await app.inject('/metrics');
    expect(metrics.body).toContain('route="/v1/health",status_code="200",service="vectorize-api"} 1');
    expect(metrics.body).toMatch(/^vectorize_pool_workers\{service="vectorize-api"\} 1$/m);
    expect(metrics.body).toMatch(/^vectorize_pool_queued_jobs\{service="vectorize-api"\} 0$/m);
  });

  it('/v1/metrics counts vectorize and optimize requests (any status) and averages their time', async () => {
    const before = (await app.inject('/v1/metrics')).json();
    expect(Object.keys(before).sort()).toEqual(['avg_processing_ms', 'request_count']);
    const png = await encode(flatTestImage(), 'png');
    expect((await postForm(app, '/v1/vectorize', {}, { bytes: png })).statusCode).toBe(200);
    expect((await postForm(app, '/v1/vectorize', { format: 'gif' }, { bytes: png })).statusCode).toBe(400);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><!-- x --><rect width="2" height="2"/></svg>');
    expect((await postForm(app, '/v1/optimize', {}, { bytes: svg })).statusCode).toBe(200);
    await app.inject('/v1/health');
    const after = (await app.inject('/v1/metrics')).json();
    expect(after.request_count).toBe(before.request_count + 3);
    expect(after.avg_processing_ms).toBeGreaterThan(0);
  });

  it('serves an OpenAPI 3.1 description with the multipart forms, and an explorer page', async () => {
    const response = await app.inject('/v1/openapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/health', '/v1/metrics', '/v1/vectorize', '/v1/optimize']),
    );
    const form = document.paths['/v1/vectorize'].post.requestBody.content['multipart/form-data'].schema;
    expect(form.required).toEqual(['file']);
    expect(form.properties.corner_threshold).toMatchObject({ type: 'integer', minimum: 0, maximum: 180 });
    expect(form.properties.format.enum).toEqual(['svg', 'pdf', 'eps']);
    const optimizeForm = document.paths['/v1/optimize'].post.requestBody.content['multipart/form-data'].schema;
    expect(optimizeForm.properties.multipass_iterations.default).toBe(10);
    const responses = document.paths['/v1/vectorize'].post.responses;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '400', '413', '415', '503']));
    expect(Object.keys(responses['200'].content)).toEqual(
      expect.arrayContaining(['application/json', 'application/pdf', 'application/postscript']),
    );

    const explorer = await app.inject('/v1/docs/');
    expect(explorer.statusCode).toBe(200);
    expect(explorer.headers['content-type']).toMatch(/text\/html/);
    expect(explorer.body).toMatch(/swagger/i);
  });

  it('is not ready until its tracing threads are warm, and serves uploads that come earlier', async () => {
    const { buildVectorizeApp } = await import('../src/app.ts');
    const { readConfig } = await import('../src/config.ts');
    const fresh = await buildVectorizeApp(readConfig({ TRACE_WORKERS: '1' }), logger);
    try {
      const early = await fresh.inject('/readyz');
      expect(early.statusCode).toBe(503);
      expect(early.json().checks['warm-up']).not.toBe('ok');
      // Not ready means "send traffic elsewhere if you can", not "refused": it queues beside the warm-up.
      const png = await encode(flatTestImage(), 'png');
      const served = await postForm(fresh, '/v1/vectorize', { engine: 'spline' }, { bytes: png });
      expect(served.statusCode).toBe(200);
      expect(served.json().svg).toMatch(/^<svg/);
      await untilReady(fresh);
      expect((await fresh.inject('/readyz')).json().checks['warm-up']).toBe('ok');
      // How long the first request after readiness takes against a warm one is a speed goal,
      // measured by bench/first-request.ts in fresh processes, not timed here.
    } finally {
      await fresh.close();
    }
  });

  it('warms up with a screenshot-like sample that takes the exact-runs path diagrams take', async () => {
    const { screenshotSample } = await import('../src/app.ts');
    const { data, info } = await sharp(await screenshotSample())
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const image = { width: info.width, height: info.height, data };
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4) colours.add(data.readUInt32BE(i));
    // Past pixel-exact's colour limit, so only the fine-detail check sends it to exact runs.
    expect(colours.size).toBeGreaterThan(AUTO_PIXEL_EXACT_MAX_COLORS);
    expect(vectorize(image).engineUsed).toBe('pixel-exact');
    expect(vectorize(image, { engine: 'pixel-exact' }).svg.length).toBeGreaterThan(vectorize(image).svg.length);
  });
});

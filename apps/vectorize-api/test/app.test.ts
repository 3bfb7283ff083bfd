import { createLogger } from '@trove/service-kit';
import { describe, expect, it } from 'vitest';
import { buildVectorizeApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';

const logger = createLogger({ service: 'vectorize-api', level: 'silent', format: 'json' });

describe('vectorize-api', () => {
  it('answers /v1/health with status and version, and serves Prometheus metrics', async () => {
    const app = await buildVectorizeApp(readConfig({}), logger);
    try {
      const health = await app.inject('/v1/health');
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok', version: '0.1.0' });
      expect((await app.inject('/readyz')).json()).toEqual({ status: 'ready', checks: {} });
      const metrics = await app.inject('/metrics');
      expect(metrics.body).toContain('route="/v1/health",status_code="200",service="vectorize-api"} 1');
    } finally {
      await app.close();
    }
  });
});

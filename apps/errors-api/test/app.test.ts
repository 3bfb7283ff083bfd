import { createLogger } from '@trove/service-kit';
import { describe, expect, it } from 'vitest';
import { buildErrorsApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';

const logger = createLogger({ service: 'errors-api', level: 'silent', format: 'json' });

describe('errors-api on embedded defaults', () => {
  it('answers /health with plain-text ok, and serves metrics and readiness', async () => {
    const app = await buildErrorsApp(readConfig({ DATA_DIR: 'memory://' }), logger);
    try {
      const health = await app.inject('/health');
      expect(health.statusCode).toBe(200);
      expect(health.headers['content-type']).toMatch(/^text\/plain/);
      expect(health.body).toBe('ok');
      expect((await app.inject('/readyz')).json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
      const metrics = await app.inject('/metrics');
      expect(metrics.body).toContain('route="/health",status_code="200",service="errors-api"} 1');
      expect((await app.inject('/api/0/nothing')).json()).toEqual({ error: 'no route for GET /api/0/nothing' });
    } finally {
      await app.close();
    }
  });
});

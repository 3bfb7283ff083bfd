import { execFileSync, spawnSync } from 'node:child_process';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { createServer, serviceKit } from '../src/index.ts';

describe.skipIf(missing('promtool'))('metrics text', () => {
  it('passes promtool check metrics', async () => {
    const app = createServer({ logger: pino({ level: 'silent' }) });
    await app.register(serviceKit, { service: 'demo' });
    app.get('/things/:id', async () => 'ok');
    await app.inject('/things/1');
    await app.inject('/nowhere');
    const text = (await app.inject('/metrics')).body;
    await app.close();
    const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('promtool itself rejects a badly named metric (the check is real)', () => {
    const bad = '# HELP requests_count things\n# TYPE requests_count counter\nrequests_count 1\n';
    let failed = false;
    try {
      execFileSync('promtool', ['check', 'metrics'], { input: bad, stdio: 'pipe' });
    } catch {
      failed = true;
    }
    expect(failed).toBe(true);
  });
});

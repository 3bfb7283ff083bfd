/** The services as separate processes, started the way a user or a cluster starts them. */

import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AppName, freePort, HEALTH_PATH, spawnTs, startApp, waitFor } from './support/processes.ts';

describe('a bad configuration value', () => {
  it.each([
    [
      'memory-api',
      { PORT: 'abc' },
      'memory-api: Invalid configuration: PORT must be a whole number from 1 to 65535 (got "abc")',
    ],
    [
      'vectorize-api',
      { LOG_LEVEL: 'loud' },
      'vectorize-api: Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
    [
      'errors-api',
      { DATABASE_URL: 'mysql://u:pw@db/x' },
      'errors-api: Invalid configuration: DATABASE_URL must be a URL starting with postgres:// or postgresql:// (got "mysql://u:***@db/x")',
    ],
  ] as const)('stops %s with one line naming the variable', async (app, env, message) => {
    const run = spawnTs(`apps/${app}/src/server.ts`, env);
    const { code } = await run.exit;
    expect(code).toBe(78);
    expect(run.output()).toBe(`${message}\n`);
  });
});

interface Outcome {
  status?: number;
  body?: string;
  error?: string;
  at: number;
}

function get(agent: Agent, url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode, body, at: Date.now() }));
      res.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message, at: Date.now() }));
    });
    req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message, at: Date.now() }));
    req.end();
  });
}

describe('SIGTERM during a burst of requests', () => {
  it('answers every request it accepted, closes the database, and exits 0', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'trove-shutdown-'));
    const app = await startApp('memory-api', { DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    let signalledAt = 0;
    let done = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 600 }, async () => {
        const outcome = await get(agent, `${app.url}/health`);
        if (++done === 60) {
          signalledAt = Date.now();
          app.child.kill('SIGTERM');
        }
        return outcome;
      }),
    );
    agent.destroy();
    const { code } = await app.exit;

    const answered = outcomes.filter((o) => o.status !== undefined);
    const refused = outcomes.filter((o) => o.error !== undefined);
    // Every answer is a whole, successful one: nothing was cut off or refused with a 5xx.
    expect(answered.every((o) => o.status === 200 && JSON.parse(o.body as string).status === 'ok')).toBe(true);
    // Requests in flight when the signal came were still answered.
    expect(answered.filter((o) => o.at >= signalledAt).length).toBeGreaterThan(0);
    // What did not get an answer never got in: the server logged exactly as many requests as were
    // answered (the rest met a closed listener, or an idle keep-alive socket closed before reading).
    const received = app
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"incoming request"'));
    expect(received.length).toBe(answered.length + 1); // + the start-up health check
    expect(refused.every((o) => ['ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes(o.error as string))).toBe(true);
    expect(code).toBe(0);
    expect(app.output()).toContain('"msg":"stopped"');
    // The embedded database was closed: its lock is gone and it opens again with the data intact.
    expect(existsSync(join(dataDir, 'trove.lock'))).toBe(false);
    const again = await startApp('memory-api', { DATA_DIR: dataDir });
    expect((await again.stop()).code).toBe(0);
  });
});

describe('npm start', () => {
  it('starts all three APIs, prints their addresses, and stops them all on SIGTERM', { timeout: 400_000 }, async () => {
    const ports = { 'memory-api': await freePort(), 'vectorize-api': await freePort(), 'errors-api': await freePort() };
    const launcher = spawnTs('scripts/start.ts', {
      MEMORY_API_PORT: String(ports['memory-api']),
      VECTORIZE_API_PORT: String(ports['vectorize-api']),
      ERRORS_API_PORT: String(ports['errors-api']),
      DATA_ROOT: await mkdtemp(join(tmpdir(), 'trove-start-')),
    });
    try {
      // Generous: a first start on a busy machine builds the GloVe cache while two other apps start.
      const deadline = Date.now() + 330_000;
      while (
        !launcher.output().includes('Trove is running') &&
        Date.now() < deadline &&
        launcher.child.exitCode === null
      ) {
        await new Promise((r) => setTimeout(r, 200));
      }
      if (!launcher.output().includes('Trove is running')) {
        const why = launcher.child.exitCode === null ? 'within 330 s' : `before it exited (${launcher.child.exitCode})`;
        throw new Error(
          `npm start did not print "Trove is running" ${why}; its output:\n${launcher.output().slice(-3000)}`,
        );
      }
      for (const [app, port] of Object.entries(ports) as [AppName, number][]) {
        expect(launcher.output()).toContain(`http://localhost:${port}`);
        await waitFor(`http://127.0.0.1:${port}${HEALTH_PATH[app]}`, 1_000);
      }
    } finally {
      launcher.child.kill('SIGTERM');
    }
    expect((await launcher.exit).code).toBe(0);
    for (const port of Object.values(ports)) {
      await expect(fetch(`http://127.0.0.1:${port}/livez`)).rejects.toThrow();
    }
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { entryCommand } from '../../../tests/support/processes.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * The real process shell, as production runs it (the run's bundle: entryCommand), on a data
 * directory that survives it.
 */
async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, entryCommand('apps/memory-api/src/server.ts'), {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EMBEDDER: 'hash',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

const lines = (ids: string[]) =>
  ids
    .map((id, i) => JSON.stringify({ id, content: `imported memory ${id} number ${i}`, namespace: 'bulk' }))
    .join('\n');

describe('kill -9 during a large import', () => {
  it('restarts consistent: every acknowledged memory is there and /verify is clean', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'memory-api-crash-'));
    try {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const first = await startServer(dataDir, port);
      const acknowledged: string[] = [];
      let batchMs = 0;
      for (let batch = 0; batch < 2; batch++) {
        const ids = Array.from({ length: 600 }, () => randomUUID());
        const started = performance.now();
        const res = await fetch(`${base}/import`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ content: lines(ids) }),
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { imported: number }).imported).toBe(600);
        acknowledged.push(...ids);
        batchMs = performance.now() - started;
      }
      // A large import, killed while it runs: 8,000 lines take about 13 times as long as 600, so
      // killing after three times a 600-line import lands in the middle on a fast or a slow machine.
      const doomed = Array.from({ length: 8000 }, () => randomUUID());
      const inFlight = fetch(`${base}/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: lines(doomed) }),
      }).catch(() => null);
      await new Promise((r) => setTimeout(r, Math.max(150, 3 * batchMs)));
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));
      expect(await inFlight).toBeNull();

      const second = await startServer(dataDir, port);
      const verify = (await (await fetch(`${base}/verify`, { method: 'POST' })).json()) as {
        mismatch: boolean;
        rows: number;
      };
      expect(verify.mismatch).toBe(false);
      expect(verify.rows).toBeGreaterThanOrEqual(acknowledged.length);
      // Whole batches only: what survived of the killed import is a multiple of the batch size.
      expect((verify.rows - acknowledged.length) % 1000).toBe(0);
      const exported = (await (await fetch(`${base}/export?namespace=bulk`)).json()) as { id: string }[];
      const have = new Set(exported.map((m) => m.id));
      expect(acknowledged.filter((id) => !have.has(id))).toEqual([]);
      const recall = (await (
        await fetch(`${base}/recall`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: `imported memory ${acknowledged[10]}`, strategy: 'vector', limit: 1 }),
        })
      ).json()) as { id: string }[];
      expect(recall[0]?.id).toBe(acknowledged[10]);
      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

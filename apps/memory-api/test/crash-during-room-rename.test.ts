import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../../tests/support/processes.ts';

const MEMBERS = 1000;
const DOCUMENTS = 20;
const running: RunningApp[] = [];
afterAll(() => {
  for (const r of running) if (r.child.exitCode === null) r.child.kill('SIGKILL');
});

async function start(dataDir: string): Promise<RunningApp> {
  const app = await startApp('memory-api', { DATA_DIR: dataDir, EMBEDDER: 'hash', LOG_LEVEL: 'warn' });
  running.push(app);
  return app;
}

async function post(base: string, path: string, body: unknown) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('kill -9 during /room/rename', () => {
  it('restarts with the room under exactly one name, with every member and document link', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'memory-api-room-crash-'));
    try {
      const first = await start(dataDir);
      const base = first.url;
      expect((await post(base, '/room/create', { name: 'alpha', title: 'Crash room' })).status).toBe(201);
      // Many members, written 8 at a time (each a distinct memory, so none is a duplicate).
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < MEMBERS) {
            const i = next++;
            const res = await post(base, '/room/remember', {
              room_id: 'alpha',
              content: `member ${i} of the crash room, token t${i}x${i * 7}`,
              author: `agent-${i % 5}`,
            });
            if (res.status !== 201) throw new Error(`remember ${i}: ${res.status} ${JSON.stringify(res.body)}`);
          }
        }),
      );
      for (let d = 0; d < DOCUMENTS; d++) {
        const res = await post(base, '/room/document', {
          room_id: 'alpha',
          slug: `doc-${d}`,
          content: `page ${d} `.repeat(80),
        });
        expect(res.status).toBe(201);
      }
      // One rename to learn how long it takes, then a second killed about halfway through.
      const started = performance.now();
      const renamed = await post(base, '/room/rename', { from: 'alpha', to: 'beta' });
      const took = performance.now() - started;
      console.info(
        `room rename of ${MEMBERS} members took ${took.toFixed(0)} ms; killing the next one after half of that`,
      );
      expect(renamed.body).toEqual({ from: 'alpha', to: 'beta', members: MEMBERS, documents: DOCUMENTS });
      const inFlight = fetch(`${base}/room/rename`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: 'beta', to: 'gamma' }),
      }).catch(() => null);
      await new Promise((r) => setTimeout(r, Math.max(1, took / 2)));
      first.child.kill('SIGKILL');
      await first.exit;
      await inFlight;

      const second = await start(dataDir);
      const rooms = (await (await fetch(`${second.url}/room/list`)).json()) as { room_id: string; members: number }[];
      const names = rooms.map((r) => r.room_id);
      // Exactly one of the two names, never both, never neither (and never the first one).
      expect(names.filter((n) => n === 'beta' || n === 'gamma')).toHaveLength(1);
      expect(names).not.toContain('alpha');
      const name = names[0] as string;
      const stats = await post(second.url, '/room/stats', { room_id: name });
      expect(stats.body).toMatchObject({ count: MEMBERS, active: MEMBERS, documents: DOCUMENTS });
      const other = name === 'beta' ? 'gamma' : 'beta';
      expect((await post(second.url, '/room/stats', { room_id: other })).status).toBe(404);
      const docs = await post(second.url, '/room/document/list', { room_id: name });
      expect((docs.body.documents as unknown[]).length).toBe(DOCUMENTS);
      const recall = await post(second.url, '/room/recall', { room_id: name, query: 'member 17 token t17x119' });
      expect((recall.body as unknown as { content: string }[])[0]?.content).toBe(
        'member 17 of the crash room, token t17x119',
      );
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

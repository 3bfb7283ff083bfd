import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dot, HashEmbedder } from '@trove/embeddings';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../../tests/support/processes.ts';
import { readConfig } from '../src/config.ts';
import { openMemoryDatabase } from '../src/db.ts';

const GROUPS = 200;
const MEMBERS = 4;
const THRESHOLD = 0.85;
const NAMESPACE = 'dups';

const running: RunningApp[] = [];
afterAll(() => {
  for (const app of running) if (app.child.exitCode === null) app.child.kill('SIGKILL');
});

const word = () => Array.from(randomBytes(7), (b) => String.fromCharCode(97 + (b % 26))).join('');

/**
 * Groups of near-duplicates: twelve shared random words plus one word of each member's own. Groups
 * are drawn again until, under the server's embedder (hashing, 64 dimensions), every pair inside a
 * group is at or above the threshold and every pair across groups below it, so the right merge of
 * each group is known exactly: all but one member deprecated.
 */
async function nearDuplicateGroups(): Promise<{ ids: string[]; contents: string[] }[]> {
  const embedder = new HashEmbedder(64);
  const groups: { ids: string[]; contents: string[]; vectors: Float32Array[] }[] = [];
  while (groups.length < GROUPS) {
    const shared = Array.from({ length: 12 }, word).join(' ');
    const contents = Array.from({ length: MEMBERS }, () => `${shared} ${word()}`);
    const vectors = await embedder.embed(contents);
    const close = vectors.every((a) => vectors.every((b) => dot(a, b) >= THRESHOLD));
    const apart = groups.every((g) => g.vectors.every((a) => vectors.every((b) => dot(a, b) < THRESHOLD)));
    if (close && apart) groups.push({ ids: contents.map(() => randomUUID()), contents, vectors });
  }
  return groups;
}

const post = async (app: RunningApp, path: string, body: unknown) => {
  const res = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

interface GroupState {
  active: number;
  deprecated: number;
}

/**
 * Reads the data directory directly (the server is down) and checks that every merge is whole:
 * each deprecated member has exactly one `consolidated_into` edge to a live keeper and a
 * `consolidated` event naming it, and each keeper's `consolidated_from` event lists exactly the
 * members whose edges point at it. Returns, per constructed group, how many are active/deprecated.
 */
async function checkMergesAreWhole(dataDir: string, groups: { ids: string[] }[]): Promise<GroupState[]> {
  const db = await openMemoryDatabase(readConfig({ DATA_DIR: dataDir, EMBEDDER: 'hash' }));
  try {
    const bad = await db.sql.query(
      `SELECT m.id::text AS id, 'deprecated member without exactly one edge to a live keeper' AS problem
         FROM memories m
        WHERE m.namespace = $1 AND m.status = 'deprecated'
          AND (SELECT count(*) FROM memory_edges e JOIN memories k ON k.id = e.target_id AND k.status = 'active'
                WHERE e.source_id = m.id AND e.edge_type = 'consolidated_into') <> 1
       UNION ALL
       SELECT e.source_id::text, 'edge without a matching consolidated event'
         FROM memory_edges e
        WHERE e.edge_type = 'consolidated_into' AND NOT EXISTS (
              SELECT 1 FROM memory_events v WHERE v.memory_id = e.source_id AND v.kind = 'consolidated'
                 AND v.evidence->>'into' = e.target_id::text)
       UNION ALL
       SELECT m.id::text, 'active memory with a consolidated_into edge'
         FROM memories m JOIN memory_edges e ON e.source_id = m.id AND e.edge_type = 'consolidated_into'
        WHERE m.status = 'active'
       UNION ALL
       SELECT k.target_id::text, 'keeper event does not list exactly its merged members'
         FROM (SELECT target_id, jsonb_agg(source_id::text ORDER BY source_id) AS ids
                 FROM memory_edges WHERE edge_type = 'consolidated_into' GROUP BY target_id) k
        WHERE NOT EXISTS (
              SELECT 1 FROM memory_events v WHERE v.memory_id = k.target_id AND v.kind = 'consolidated_from'
                 AND v.evidence->'ids' = k.ids)`,
      [NAMESPACE],
    );
    expect(bad).toEqual([]);
    const rows = await db.sql.query<{ id: string; status: string }>(
      `SELECT id::text AS id, status FROM memories WHERE namespace = $1`,
      [NAMESPACE],
    );
    const status = new Map(rows.map((r) => [r.id, r.status]));
    return groups.map((g) => ({
      active: g.ids.filter((id) => status.get(id) === 'active').length,
      deprecated: g.ids.filter((id) => status.get(id) === 'deprecated').length,
    }));
  } finally {
    await db.close();
  }
}

describe('kill -9 during /consolidate', () => {
  it('leaves every merge group fully applied or untouched; /verify is clean and a rerun finishes', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'memory-api-consolidate-crash-'));
    const env = { DATA_DIR: dataDir, EMBEDDER: 'hash', LOG_FORMAT: 'json', DATABASE_URL: '', REDIS_URL: '' };
    try {
      const groups = await nearDuplicateGroups();
      const first = await startApp('memory-api', env);
      running.push(first);
      const lines = groups.flatMap((g) =>
        g.ids.map((id, i) => JSON.stringify({ id, content: g.contents[i], namespace: NAMESPACE })),
      );
      const imported = await post(first, '/import', { content: lines.join('\n') });
      expect(imported.body.imported).toBe(GROUPS * MEMBERS);

      // Start the merge, watch it through /lifecycle/status, and kill the server once some groups are in.
      const inFlight = post(first, '/consolidate', { namespace: NAMESPACE, threshold: THRESHOLD }).catch(() => null);
      let seen = 0;
      for (let i = 0; i < 3000 && seen === 0; i++) {
        const res = await fetch(`${first.url}/lifecycle/status?namespace=${NAMESPACE}`);
        seen = ((await res.json()) as { deprecated: number }).deprecated;
        if (seen === 0) await new Promise((r) => setTimeout(r, 5));
      }
      expect(seen).toBeGreaterThan(0);
      first.child.kill('SIGKILL');
      await first.exit;
      expect(await inFlight).toBeNull(); // killed before it could answer

      const afterCrash = await checkMergesAreWhole(dataDir, groups);
      const whole = (s: GroupState) => s.active === 1 && s.deprecated === MEMBERS - 1;
      const untouched = (s: GroupState) => s.active === MEMBERS && s.deprecated === 0;
      expect(afterCrash.filter((s) => !whole(s) && !untouched(s))).toEqual([]);
      const applied = afterCrash.filter(whole).length;
      expect(applied).toBeGreaterThan(0);
      expect(applied).toBeLessThan(GROUPS);

      const second = await startApp('memory-api', env);
      running.push(second);
      expect((await post(second, '/verify', {})).body.mismatch).toBe(false);
      const rerun = await post(second, '/consolidate', { namespace: NAMESPACE, threshold: THRESHOLD });
      expect(rerun.body).toMatchObject({ groups: GROUPS - applied, merged: (GROUPS - applied) * (MEMBERS - 1) });
      expect((await post(second, '/verify', {})).body.mismatch).toBe(false);
      await second.stop();

      const afterRerun = await checkMergesAreWhole(dataDir, groups);
      expect(afterRerun.filter((s) => !whole(s))).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

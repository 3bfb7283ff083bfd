import type { MemoryStore } from '../memories/memory-store.ts';
import { idsParam } from '../memories/sql-rows.ts';
import { type StalePass, staleMemories } from './stale.ts';
import { deprecateMemories } from './transitions.ts';

export const AGING_ACTIONS = ['deprioritize', 'deprecate'] as const;
export type AgingAction = (typeof AGING_ACTIONS)[number];

/** Deprioritizing halves importance, down to this floor; repeated runs settle there instead of reaching 0. */
export const AGING_FACTOR = 0.5;
export const AGING_FLOOR = 0.1;

export interface AgingOptions extends StalePass {
  action: AgingAction;
}

/**
 * Stale memories (unused for `olderThanDays`, read at most `maxAccessCount` times, not pinned)
 * lose importance (`deprioritize`) or are deprecated (`deprecate`).
 */
export async function runAging(store: MemoryStore, o: AgingOptions) {
  const stale = await staleMemories(store, { ...o, limit: o.maxPerCall, now: new Date() });
  let changed: string[];
  if (o.action === 'deprecate') {
    changed = o.dryRun
      ? stale.ids
      : await deprecateMemories(store, stale.ids, {
          actor: 'aging',
          evidence: { reason: 'aging', older_than_days: o.olderThanDays, max_access_count: o.maxAccessCount },
        });
  } else {
    changed = o.dryRun ? await aboveFloor(store, stale.ids) : await deprioritize(store, stale.ids, o);
  }
  return {
    action: o.action,
    dry_run: o.dryRun,
    namespace: o.namespace ?? null,
    older_than_days: o.olderThanDays,
    max_access_count: o.maxAccessCount,
    matched: stale.ids.length,
    changed: changed.length,
    ids: changed,
    truncated: stale.truncated,
  };
}

/** The ones deprioritizing would still lower (those at the floor already stay as they are). */
async function aboveFloor(store: MemoryStore, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await store.db.sql.query<{ id: string }>(
    `SELECT id::text AS id FROM memories WHERE id IN ${idsParam('$1')} AND importance > $2`,
    [JSON.stringify(ids), AGING_FLOOR],
  );
  return rows.map((r) => r.id);
}

async function deprioritize(store: MemoryStore, ids: string[], o: AgingOptions): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await store.db.sql.query<{ id: string }>(
    `WITH before AS (
       SELECT id, importance FROM memories
        WHERE id IN ${idsParam('$1')} AND status = 'active' AND NOT pinned AND importance > $2
     ), changed AS (
       UPDATE memories m SET importance = GREATEST($2, m.importance * $3), updated_at = $4::timestamptz
         FROM before b WHERE m.id = b.id
       RETURNING m.id, b.importance AS was, m.importance AS now
     ), events AS (
       INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
       SELECT id, 'deprioritized', 'aging',
              jsonb_build_object('from', was, 'to', now, 'older_than_days', $5::int, 'max_access_count', $6::int),
              $4::timestamptz
         FROM changed
     )
     SELECT id::text AS id FROM changed`,
    [JSON.stringify(ids), AGING_FLOOR, AGING_FACTOR, new Date().toISOString(), o.olderThanDays, o.maxAccessCount],
  );
  // Importance is no filter field of the vector catalog: nothing there to refresh.
  return rows.map((r) => r.id);
}

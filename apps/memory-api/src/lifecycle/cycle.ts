import type { MemoryStore } from '../memories/memory-store.ts';
import { expiredMemories, type StalePass, staleMemories } from './stale.ts';
import { deleteDeprecated, deprecateMemories } from './transitions.ts';

export interface CycleOptions extends StalePass {
  pruneExpired: boolean;
  ttlDays: number;
}

/**
 * One lifecycle pass: active memories unused for `olderThanDays` and read at most
 * `maxAccessCount` times become deprecated; with `pruneExpired`, deprecated memories past their
 * TTL are deleted for good. Pinned memories are never touched. A dry run only reports.
 */
export async function runCycle(store: MemoryStore, o: CycleOptions) {
  const now = new Date();
  const stale = await staleMemories(store, { ...o, limit: o.maxPerCall, now });
  const expired = o.pruneExpired
    ? await expiredMemories(store, { namespace: o.namespace, ttlDays: o.ttlDays, limit: o.maxPerCall, now })
    : null;
  // Expired ones are chosen before this pass deprecates anything, so a memory is never
  // deprecated and deleted in the same call.
  const deprecated = o.dryRun
    ? stale.ids
    : await deprecateMemories(store, stale.ids, {
        actor: 'lifecycle',
        evidence: { reason: 'lifecycle_cycle', older_than_days: o.olderThanDays, max_access_count: o.maxAccessCount },
      });
  const pruned = expired === null ? null : o.dryRun ? expired.ids : await deleteDeprecated(store, expired.ids);
  return {
    dry_run: o.dryRun,
    namespace: o.namespace ?? null,
    older_than_days: o.olderThanDays,
    max_access_count: o.maxAccessCount,
    deprecated: { count: deprecated.length, ids: deprecated },
    pruned: pruned === null ? null : { ttl_days: o.ttlDays, count: pruned.length, ids: pruned },
    truncated: stale.truncated || (expired?.truncated ?? false),
  };
}

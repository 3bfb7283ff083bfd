import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { dot } from '@trove/embeddings';
import type { MemoryStore } from '../memories/memory-store.ts';
import { type MergeGroup, mergeGroup } from './merge.ts';

/** Namespaces up to this size are compared pair by pair (exact); larger ones ask the HNSW index. */
const EXACT_LIMIT = 2000;
const FIRST_K = 16;
const MAX_K = 1024;

interface LiveRow {
  id: string;
  namespace: string;
  pinned: boolean;
}

export interface ConsolidateOptions {
  dryRun: boolean;
  namespace?: string | undefined;
  threshold: number;
  maxPerCall: number;
}

/**
 * Groups near-duplicate live memories, namespace by namespace. Memories are taken in keeper order
 * (pinned first, then most important, most read, oldest); each one not yet grouped becomes a
 * keeper and claims every ungrouped, unpinned memory with cosine similarity to it at or above the
 * threshold. Every member is therefore close to its own keeper (no chains of "similar to
 * something similar"), and pinned memories only ever keep.
 */
export async function planConsolidation(
  store: MemoryStore,
  o: ConsolidateOptions,
): Promise<{ groups: MergeGroup[]; truncated: boolean }> {
  const params: unknown[] = [];
  let where = `status = 'active'`;
  if (o.namespace !== undefined) {
    params.push(o.namespace);
    where += ' AND namespace = $1';
  }
  const rows = await store.db.sql.query<LiveRow>(
    `SELECT id::text AS id, namespace, pinned FROM memories WHERE ${where}
      ORDER BY namespace, pinned DESC, importance DESC, access_count DESC, created_at, id`,
    params,
  );
  const byNamespace = new Map<string, LiveRow[]>();
  for (const r of rows) {
    const list = byNamespace.get(r.namespace) ?? [];
    list.push(r);
    byNamespace.set(r.namespace, list);
  }
  const groups: MergeGroup[] = [];
  let budget = o.maxPerCall;
  for (const [namespace, list] of byNamespace) {
    const found =
      list.length <= EXACT_LIMIT
        ? await groupExactly(store, namespace, list, o.threshold, budget)
        : await groupByIndex(store, namespace, list, o.threshold, budget);
    for (const g of found.groups) budget -= g.members.length;
    groups.push(...found.groups);
    if (found.truncated || budget <= 0) return { groups, truncated: true };
  }
  return { groups, truncated: false };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** The cap fell inside a group: what it claimed so far still merges. */
function withPartial(
  groups: MergeGroup[],
  keeper: string | undefined,
  namespace: string,
  members: MergeGroup['members'],
): MergeGroup[] {
  return members.length > 0 && keeper ? [...groups, { keeper, namespace, members }] : groups;
}

async function groupExactly(
  store: MemoryStore,
  namespace: string,
  list: LiveRow[],
  threshold: number,
  budget: number,
): Promise<{ groups: MergeGroup[]; truncated: boolean }> {
  const held = await store.vectorsOf(list.map((r) => r.id));
  const vectors = list.map((r) => held.get(r.id));
  const grouped = new Uint8Array(list.length);
  const groups: MergeGroup[] = [];
  for (let i = 0; i < list.length; i++) {
    const v = vectors[i];
    if (grouped[i] || !v) continue;
    grouped[i] = 1;
    const members: MergeGroup['members'] = [];
    for (let j = i + 1; j < list.length; j++) {
      const u = vectors[j];
      if (grouped[j] || !u || list[j]?.pinned) continue;
      const similarity = dot(v, u);
      if (similarity < threshold) continue;
      if (members.length >= budget)
        return { groups: withPartial(groups, list[i]?.id, namespace, members), truncated: true };
      grouped[j] = 1;
      members.push({ id: list[j]?.id as string, similarity: round(similarity) });
    }
    if (members.length > 0) {
      groups.push({ keeper: list[i]?.id as string, namespace, members });
      budget -= members.length;
    }
    if (i % 64 === 63) await yieldToEventLoop();
  }
  return { groups, truncated: false };
}

async function groupByIndex(
  store: MemoryStore,
  namespace: string,
  list: LiveRow[],
  threshold: number,
  budget: number,
): Promise<{ groups: MergeGroup[]; truncated: boolean }> {
  const rowOf = new Map(list.map((r) => [r.id, r]));
  const grouped = new Set<string>();
  const groups: MergeGroup[] = [];
  const held = await store.vectorsOf(list.map((r) => r.id));
  for (const [i, row] of list.entries()) {
    const v = held.get(row.id);
    if (grouped.has(row.id) || !v) continue;
    grouped.add(row.id);
    // Widen the search until the farthest hit falls below the threshold.
    let hits = await store.search(v, FIRST_K, { namespace });
    for (let k = FIRST_K; hits.length >= k && (hits.at(-1)?.score ?? 0) >= threshold && k < MAX_K; ) {
      k *= 4;
      hits = await store.search(v, k, { namespace });
    }
    const members: MergeGroup['members'] = [];
    for (const hit of hits) {
      const other = rowOf.get(hit.id);
      if (hit.score < threshold || !other || other.pinned || grouped.has(hit.id)) continue;
      if (members.length >= budget) return { groups: withPartial(groups, row.id, namespace, members), truncated: true };
      grouped.add(hit.id);
      members.push({ id: hit.id, similarity: round(hit.score) });
    }
    if (members.length > 0) {
      groups.push({ keeper: row.id, namespace, members });
      budget -= members.length;
    }
    if (i % 64 === 63) await yieldToEventLoop();
  }
  return { groups, truncated: false };
}

/** Plans, then applies each group in its own statement (or only reports, in a dry run). */
export async function consolidate(store: MemoryStore, o: ConsolidateOptions) {
  const plan = await planConsolidation(store, o);
  const merges: { keeper: string; namespace: string; removed: MergeGroup['members'] }[] = [];
  for (const group of plan.groups) {
    if (o.dryRun) {
      merges.push({ keeper: group.keeper, namespace: group.namespace, removed: group.members });
      continue;
    }
    const removed = new Set(await mergeGroup(store, group, { actor: 'consolidate', reason: 'consolidate' }));
    // PGlite answers within the same turn of the event loop: without this, a long merge would
    // hold every other request (and a probe) until it ends.
    await yieldToEventLoop();
    const applied = group.members.filter((m) => removed.has(m.id));
    if (applied.length > 0) merges.push({ keeper: group.keeper, namespace: group.namespace, removed: applied });
  }
  return {
    dry_run: o.dryRun,
    namespace: o.namespace ?? null,
    threshold: o.threshold,
    groups: merges.length,
    merged: merges.reduce((n, m) => n + m.removed.length, 0),
    merges,
    truncated: plan.truncated,
  };
}

import { dot } from '@trove/embeddings';
import { conflict, invalid, notFound } from '../domain-error.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { toMemoryJson } from '../memories/record.ts';
import { mergeGroup } from './merge.ts';
import { promoteMemory } from './transitions.ts';

/**
 * `/consolidate/pair`: keeps one memory and deprecates the other (or deletes it), merging as
 * consolidation does. Both must be in one namespace; the keeper must be live and the other
 * unpinned (and live, unless it is deleted for good).
 */
export async function mergePair(store: MemoryStore, keepId: string, removeId: string, hardDelete: boolean) {
  if (keepId === removeId) throw invalid('id_keep and id_remove must differ');
  const rows = await store.getMany([keepId, removeId]);
  const keep = rows.get(keepId);
  const remove = rows.get(removeId);
  if (!keep) throw notFound(`no memory with id ${keepId}`);
  if (!remove) throw notFound(`no memory with id ${removeId}`);
  if (keep.namespace !== remove.namespace)
    throw invalid(`id_keep is in namespace ${keep.namespace} and id_remove in ${remove.namespace}`);
  if (keep.status !== 'active') throw conflict(`memory ${keepId} (id_keep) is deprecated; promote it first`);
  if (remove.pinned) throw conflict(`memory ${removeId} (id_remove) is pinned; unpin it first`);
  if (remove.status !== 'active' && !hardDelete) throw conflict(`memory ${removeId} (id_remove) is already deprecated`);
  const vectors = await store.vectorsOf([keepId, removeId]);
  const a = vectors.get(keepId);
  const b = vectors.get(removeId);
  const similarity = a && b ? Math.round(dot(a, b) * 10_000) / 10_000 : null;
  const removed = await mergeGroup(
    store,
    { keeper: keepId, namespace: keep.namespace, members: [{ id: removeId, similarity }] },
    { actor: 'api', reason: 'consolidate_pair', hardDelete },
  );
  // The checks above passed, so only a concurrent change can get here.
  if (removed.length === 0) throw conflict('the memories changed meanwhile; nothing was merged');
  const kept = await store.get(keepId);
  return {
    kept: kept ? toMemoryJson(kept) : null,
    removed: { id: removeId, status: hardDelete ? 'deleted' : 'deprecated' },
    hard_deleted: hardDelete,
    similarity,
  };
}

/** `/lifecycle/promote`: a deprecated memory made active again; CONFLICT when it is active already. */
export async function promote(store: MemoryStore, id: string) {
  const before = await store.get(id);
  if (!before) throw notFound(`no memory with id ${id}`);
  if (before.status !== 'deprecated') throw conflict(`memory ${id} is already active`);
  const promoted = await promoteMemory(store, id, { actor: 'api', evidence: { reason: 'promote' } });
  // Another request restored it in between: the same outcome the caller asked for, but say so.
  if (!promoted) throw conflict(`memory ${id} is already active`);
  return toMemoryJson((await store.get(id)) ?? before);
}

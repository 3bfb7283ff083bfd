import { conflict, invalid, notFound } from '../domain-error.ts';
import type { MemoryStore } from './memory-store.ts';
import { countRows } from './sql-rows.ts';

/** Namespaces in use, with their memory counts. */
export function listNamespaces(store: MemoryStore) {
  return store.db.sql.query<{ name: string; count: number; active: number; deprecated: number }>(
    `SELECT namespace AS name, count(*)::int AS count,
            count(*) FILTER (WHERE status = 'active')::int AS active,
            count(*) FILTER (WHERE status = 'deprecated')::int AS deprecated
       FROM memories GROUP BY namespace ORDER BY namespace`,
  );
}

const count = (store: MemoryStore, name: string) => countRows(store.db.sql, 'memories WHERE namespace = $1', [name]);

async function mustExist(store: MemoryStore, name: string): Promise<number> {
  const n = await count(store, name);
  if (n === 0) throw notFound(`no namespace named ${JSON.stringify(name)}`);
  return n;
}

/**
 * Moves every memory of `from` to `to` (no re-embedding), with a timeline event on each, then runs
 * the content hooks for the moved memories that mention or reference a document (document
 * references are per namespace, so they follow the memory to its new one).
 */
export async function moveNamespace(store: MemoryStore, from: string, to: string) {
  if (from === to) throw invalid('from and to are the same namespace');
  await mustExist(store, from);
  const targetExisted = (await count(store, to)) > 0;
  const moved = await store.db.sql.query<{ id: string; content: string; linked: boolean }>(
    `WITH events AS (INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
       SELECT id, 'namespace_moved', 'api', jsonb_build_object('from', $1::text, 'to', $2::text), now()
         FROM memories WHERE namespace = $1)
     UPDATE memories m SET namespace = $2, updated_at = now() WHERE namespace = $1
       RETURNING id::text AS id, content, EXISTS (SELECT 1 FROM memory_doc_refs r WHERE r.memory_id = m.id) AS linked`,
    [from, to],
  );
  await store.refreshCatalog({ namespace: to });
  for (const m of moved) {
    if (m.linked || m.content.includes('[[') || m.content.includes('doc:'))
      await store.wroteContent({ id: m.id, namespace: to, content: m.content }, { created: false });
  }
  return { moved: moved.length, targetExisted };
}

/** Deletes a namespace by one of the spec's strategies (refuse is a conflict while it is used). */
export async function deleteNamespace(
  store: MemoryStore,
  name: string,
  strategy: 'refuse' | 'merge' | 'deprecate',
  target: string | undefined,
) {
  const n = await mustExist(store, name);
  if (strategy === 'refuse')
    throw conflict(`namespace ${JSON.stringify(name)} is referenced by ${n} memories; use strategy merge or deprecate`);
  if (strategy === 'merge') {
    if (!target) throw invalid('strategy merge needs a target namespace');
    if (target === name) throw invalid('target must differ from name');
    return { name, strategy, target, moved: (await moveNamespace(store, name, target)).moved };
  }
  // One statement: the event rows and the update see the same active memories.
  const [{ deprecated } = { deprecated: 0 }] = await store.db.sql.query<{ deprecated: number }>(
    `WITH events AS (INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
       SELECT id, 'deprecated', 'api', '{"reason":"namespace_delete"}'::jsonb, now()
         FROM memories WHERE namespace = $1 AND status = 'active'),
     gone AS (UPDATE memories SET status = 'deprecated', deprecated_at = now(), updated_at = now()
       WHERE namespace = $1 AND status = 'active' RETURNING 1)
     SELECT count(*)::int AS deprecated FROM gone`,
    [name],
  );
  await store.refreshCatalog({ namespace: name });
  return { name, strategy, deprecated };
}

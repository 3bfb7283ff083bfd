import type { MemoryFilter } from '../memories/filters.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { docSlugsOfMemories, liveMemoryIdsOfDocuments } from './doc-refs.ts';
import { documentIndex } from './document-index.ts';
import { searchDocuments } from './document-search.ts';
import { toDocumentJson } from './document-store.ts';

export interface DocumentRecallInput {
  query: string;
  limit: number;
  filter: MemoryFilter;
  minScore: number;
  vectorFloor: number;
}

/**
 * Documents for `/recall` with `search_type` `doc` or `all`: hybrid search (meaning and full
 * text fused like memory recall, so scores compare), marked `kind: "document"`. Filters that
 * documents can answer apply (namespace, tags, after, before, at by creation time); a filter on
 * `category` or `entity`, which documents do not carry, leaves documents out.
 */
export async function recallDocuments(store: MemoryStore, input: DocumentRecallInput) {
  const f = input.filter;
  if (f.category !== undefined || f.entity !== undefined) return [];
  // Most stores have no documents: skip the search rather than pay a query for nothing.
  if ((await documentIndex(store)).size === 0) return [];
  const hits = await searchDocuments(store, {
    query: input.query,
    mode: 'hybrid',
    limit: input.limit,
    filter: { namespace: f.namespace, tags: f.tags, after: f.after, before: f.before, at: f.at },
    vectorFloor: input.vectorFloor,
  });
  return hits
    .filter((h) => h.score >= input.minScore)
    .map((h) => ({ kind: 'document' as const, ...toDocumentJson(h.row), content: h.row.content, score: h.score }));
}

export type DocumentRecallResult = Awaited<ReturnType<typeof recallDocuments>>[number];

/** `enrich`: slugs of referenced documents on memory results, ids of referencing live memories on document results. */
export async function enrichResults<T extends { id: string; kind?: string }>(store: MemoryStore, results: T[]) {
  const docIds = results.filter((r) => r.kind === 'document').map((r) => r.id);
  const memoryIds = results.filter((r) => r.kind !== 'document').map((r) => r.id);
  const [slugs, memories] = await Promise.all([
    docSlugsOfMemories(store, memoryIds),
    liveMemoryIdsOfDocuments(store, docIds),
  ]);
  return results.map((r) =>
    r.kind === 'document'
      ? { ...r, linked_memory_ids: memories.get(r.id) ?? [] }
      : { ...r, linked_doc_slugs: slugs.get(r.id) ?? [] },
  );
}

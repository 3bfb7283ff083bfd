import { dot, type Neighbour } from '@trove/embeddings';
import { type StoredEmbedding, saveEmbeddings, storedVector } from '../memories/embedding-codec.ts';
import type { MemoryStore } from '../memories/memory-store.ts';

/** What a document search filters on, without a database round trip. */
export interface IndexedDocument {
  namespace: string;
  tags: string[];
  createdAt: number;
  vector: Float32Array;
}

/** The text a document is embedded from: its title says what it is about as much as its body. */
export const embeddingText = (title: string, content: string) => (title ? `${title}\n${content}` : content);

/**
 * Document vectors in process, derived from the stored embeddings like the memory catalog.
 * Documents are few next to memories (reference pages, not chat lines), so an exact scan is
 * both simpler and exact; the index is built on first use after a start, so a crash leaves
 * nothing stale behind.
 */
export class DocumentIndex {
  private readonly docs = new Map<string, IndexedDocument>();

  get size(): number {
    return this.docs.size;
  }

  put(id: string, doc: IndexedDocument): void {
    this.docs.set(id, doc);
  }

  /** Refreshes the filter fields and keeps the vector (a move or a tag edit). */
  touch(id: string, fields: Partial<Omit<IndexedDocument, 'vector'>>): void {
    const doc = this.docs.get(id);
    if (doc) this.docs.set(id, { ...doc, ...fields });
  }

  remove(id: string): void {
    this.docs.delete(id);
  }

  search(query: Float32Array, k: number, accept: (doc: IndexedDocument) => boolean): Neighbour[] {
    if (dot(query, query) === 0) return [];
    const hits: Neighbour[] = [];
    for (const [id, doc] of this.docs) if (accept(doc)) hits.push({ id, score: dot(query, doc.vector) });
    // Ties broken by id, so equal scores come back in the same order every time.
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, k);
  }
}

const indexes = new WeakMap<MemoryStore, Promise<DocumentIndex>>();

/** The store's document index, loaded (and stale embeddings refreshed) on first use. */
export function documentIndex(store: MemoryStore): Promise<DocumentIndex> {
  let index = indexes.get(store);
  if (!index) {
    index = loadIndex(store);
    // A failed load must not be cached: the next call tries again.
    index.catch(() => indexes.delete(store));
    indexes.set(store, index);
  }
  return index;
}

/** Drops a loaded document index so that the next use reads every document again (a feed resync). */
export async function reloadDocumentIndex(store: MemoryStore): Promise<void> {
  indexes.delete(store);
}

/** Documents with their vectors (null: none of this model): all of them with their text, or those of `ids`. */
async function readDocuments(store: MemoryStore, ids?: string[]) {
  const rows = await store.db.sql.query<
    StoredEmbedding & { id: string; namespace: string; tags: string[] | null; created_at: Date } & Record<
        'title' | 'content',
        string
      >
  >(
    `SELECT id::text AS id, namespace, tags, created_at, embedding, embedding_model
       ${ids ? 'FROM documents WHERE id = ANY($1::uuid[])' : ', title, content FROM documents'}`,
    ids ? [ids] : [],
  );
  return rows.map((r) => ({
    ...r,
    vector: storedVector(r, store.embedder.model),
    entry: { namespace: r.namespace, tags: r.tags ?? [], createdAt: new Date(r.created_at).getTime() },
  }));
}

async function loadIndex(store: MemoryStore): Promise<DocumentIndex> {
  const docs = await readDocuments(store);
  const index = new DocumentIndex();
  // Without a vector of this model (not embedded yet, or by another): embed so scores compare like with like.
  const fresh = await embedDocuments(
    store,
    docs.filter((d) => !d.vector),
  );
  for (const d of docs) index.put(d.id, { ...d.entry, vector: d.vector ?? (fresh.get(d.id) as Float32Array) });
  return index;
}

/** Embeds documents with the configured model and stores the vectors (one transaction). */
export async function embedDocuments(
  store: MemoryStore,
  docs: { id: string; title: string; content: string }[],
): Promise<Map<string, Float32Array>> {
  if (docs.length === 0) return new Map();
  const vectors = await store.embedder.embed(docs.map((d) => embeddingText(d.title, d.content)));
  await saveEmbeddings(store.db.sql, 'documents', docs, vectors as Float32Array[], store.embedder.model);
  return new Map(docs.map((d, i) => [d.id, vectors[i] as Float32Array]));
}

/**
 * Re-reads documents named by the change feed into the index, if it is loaded (one loaded later
 * reads everything anyway): another replica's create, edit, move or delete.
 */
export async function applyDocumentChanges(store: MemoryStore, ids: string[]): Promise<void> {
  const loaded = indexes.get(store);
  if (!loaded || ids.length === 0) return;
  const index = await loaded;
  const found = new Set<string>();
  for (const d of await readDocuments(store, ids)) {
    if (!d.vector) continue;
    found.add(d.id);
    index.put(d.id, { ...d.entry, vector: d.vector });
  }
  for (const id of ids) if (!found.has(id)) index.remove(id);
}

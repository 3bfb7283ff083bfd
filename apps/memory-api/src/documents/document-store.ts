import { randomUUID } from 'node:crypto';
import { conflict, invalid, notFound } from '../domain-error.ts';
import { embeddingHex } from '../memories/embedding-codec.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { sqlIso } from '../memories/sql-rows.ts';
import { linkDocumentMentions } from './doc-refs.ts';
import { documentIndex, embeddingText } from './document-index.ts';

export const DEFAULT_DOC_NAMESPACE = 'default';

/** A document row as read by DOC_SELECT (alias `d`), without the embedding bytes and tsvector. */
export interface DocumentRow {
  id: string;
  slug: string;
  namespace: string;
  title: string;
  content: string;
  tags: string[];
  parent_id: string | null;
  parent_slug: string | null;
  sort_order: number;
  embedding_model: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export const DOC_SELECT = `d.id::text AS id, d.slug, d.namespace, d.title, d.content, d.tags,
  d.parent_id::text AS parent_id, (SELECT p.slug FROM documents p WHERE p.id = d.parent_id) AS parent_slug,
  d.sort_order, d.embedding_model, d.created_at, d.updated_at`;

/** A document as the API shows it; listings leave the content out and give its length. */
export function toDocumentJson(row: DocumentRow, withContent = true) {
  return {
    id: row.id,
    slug: row.slug,
    namespace: row.namespace,
    title: row.title,
    ...(withContent ? { content: row.content } : {}),
    chars: row.content.length,
    tags: row.tags ?? [],
    parent: row.parent_slug,
    parent_id: row.parent_id,
    sort_order: Number(row.sort_order),
    embedding_model: row.embedding_model,
    created_at: sqlIso(row.created_at),
    updated_at: sqlIso(row.updated_at),
  };
}

/** How a request names a document: its id, or its slug within a namespace. */
export interface DocumentRef {
  id?: string | undefined;
  slug?: string | undefined;
  namespace: string;
}

export async function findDocument(store: MemoryStore, ref: DocumentRef): Promise<DocumentRow | null> {
  const [row] = await store.db.sql.query<DocumentRow>(
    `SELECT ${DOC_SELECT} FROM documents d WHERE ${ref.id ? 'd.id = $1::uuid' : 'd.namespace = $1 AND d.slug = $2'}`,
    ref.id ? [ref.id] : [ref.namespace, ref.slug],
  );
  return row ?? null;
}

export async function requireDocument(store: MemoryStore, ref: DocumentRef): Promise<DocumentRow> {
  const row = await findDocument(store, ref);
  if (!row) {
    throw notFound(
      ref.id
        ? `no document with id ${ref.id}`
        : `no document ${JSON.stringify(ref.slug)} in namespace ${ref.namespace}`,
    );
  }
  return row;
}

/** A parent named by id or slug must exist in the child's namespace: a tree never spans tenants. */
async function resolveParent(store: MemoryStore, parent: DocumentRef, namespace: string): Promise<string> {
  const row = await findDocument(store, { ...parent, namespace });
  if (!row || row.namespace !== namespace) {
    throw notFound(`parent document ${parent.id ?? JSON.stringify(parent.slug)} not found in namespace ${namespace}`);
  }
  return row.id;
}

/** Refuses a parent that is the document itself or one of its descendants. */
async function refuseCycle(store: MemoryStore, id: string, parentId: string): Promise<void> {
  const [hit] = await store.db.sql.query(
    `WITH RECURSIVE up(id, depth) AS (
       SELECT $1::uuid, 0
       UNION ALL
       SELECT d.parent_id, up.depth + 1 FROM documents d JOIN up ON d.id = up.id
        WHERE d.parent_id IS NOT NULL AND up.depth < 10000)
     SELECT 1 FROM up WHERE id = $2::uuid LIMIT 1`,
    [parentId, id],
  );
  if (hit) throw invalid('the new parent is the document itself or one of its descendants: that would make a cycle');
}

export interface NewDocument {
  slug: string;
  namespace: string;
  title: string;
  content: string;
  tags: string[];
  parent?: DocumentRef | undefined;
  sortOrder?: number | undefined;
}

/** Stores a document, indexes its vector and links the memories that already mention its slug. */
export async function createDocument(store: MemoryStore, input: NewDocument): Promise<DocumentRow> {
  if (await findDocument(store, { slug: input.slug, namespace: input.namespace })) {
    throw conflict(`document ${JSON.stringify(input.slug)} already exists in namespace ${input.namespace}`);
  }
  const parentId = input.parent ? await resolveParent(store, input.parent, input.namespace) : null;
  const index = await documentIndex(store);
  const vector = await store.embedOne(embeddingText(input.title, input.content));
  const id = randomUUID();
  const now = new Date();
  try {
    await store.db.sql.query(
      `INSERT INTO documents (id, slug, namespace, title, content, tags, parent_id, sort_order, embedding,
         embedding_model, created_at, updated_at)
       VALUES ($1::uuid, $2, $3, $4, $5, ARRAY(SELECT jsonb_array_elements_text($6::jsonb)), $7::uuid, $8,
         decode($9, 'hex'), $10, $11::timestamptz, $11::timestamptz)`,
      [
        id,
        input.slug,
        input.namespace,
        input.title,
        input.content,
        JSON.stringify(input.tags),
        parentId,
        input.sortOrder ?? 0,
        embeddingHex(vector),
        store.embedder.model,
        now.toISOString(),
      ],
    );
  } catch (err) {
    // Two creates of one slug at once: the unique index decides, and the loser gets the same 409.
    if (/documents_namespace_slug_key|duplicate key/.test(String((err as Error).message))) {
      throw conflict(`document ${JSON.stringify(input.slug)} already exists in namespace ${input.namespace}`);
    }
    throw err;
  }
  index.put(id, { namespace: input.namespace, tags: input.tags, createdAt: now.getTime(), vector });
  await linkDocumentMentions(store, { id, slug: input.slug, namespace: input.namespace });
  return (await findDocument(store, { id, namespace: input.namespace })) as DocumentRow;
}

export interface DocumentPatch {
  title?: string | undefined;
  content?: string | undefined;
  tags?: string[] | undefined;
  /** null makes the document a root. */
  parent?: DocumentRef | null | undefined;
  sortOrder?: number | undefined;
}

/** Replaces the given fields; new content or title is embedded again; a new parent must not make a cycle. */
export async function updateDocument(store: MemoryStore, doc: DocumentRow, patch: DocumentPatch): Promise<DocumentRow> {
  const sets: string[] = ['updated_at = now()'];
  const params: unknown[] = [doc.id];
  // `$` in `expr` stands for the value's placeholder.
  const set = (column: string, value: unknown, expr = '$') => {
    params.push(value);
    sets.push(`${column} = ${expr.replace('$', `$${params.length}`)}`);
  };
  if (patch.title !== undefined) set('title', patch.title);
  if (patch.content !== undefined) set('content', patch.content);
  if (patch.tags !== undefined)
    set('tags', JSON.stringify(patch.tags), 'ARRAY(SELECT jsonb_array_elements_text($::jsonb))');
  if (patch.parent !== undefined) {
    let parentId: string | null = null;
    if (patch.parent !== null) {
      parentId = await resolveParent(store, patch.parent, doc.namespace);
      await refuseCycle(store, doc.id, parentId);
    }
    set('parent_id', parentId, '$::uuid');
  }
  if (patch.sortOrder !== undefined) set('sort_order', patch.sortOrder);
  const index = await documentIndex(store);
  const title = patch.title ?? doc.title;
  const content = patch.content ?? doc.content;
  const reembed = title !== doc.title || content !== doc.content;
  const vector = reembed ? await store.embedOne(embeddingText(title, content)) : null;
  if (vector) {
    set('embedding', embeddingHex(vector), "decode($, 'hex')");
    set('embedding_model', store.embedder.model);
  }
  await store.db.sql.query(`UPDATE documents SET ${sets.join(', ')} WHERE id = $1::uuid`, params);
  const updated = (await findDocument(store, { id: doc.id, namespace: doc.namespace })) as DocumentRow;
  const fields = { namespace: updated.namespace, tags: updated.tags ?? [] };
  if (vector) index.put(doc.id, { ...fields, createdAt: new Date(updated.created_at).getTime(), vector });
  else index.touch(doc.id, fields);
  return updated;
}

/** Deletes a document; its children become roots (ON DELETE SET NULL), room and memory references go with it. */
export async function deleteDocument(
  store: MemoryStore,
  doc: DocumentRow,
): Promise<{ reparented_children: number; room_refs: number; memory_refs: number }> {
  const [counts] = await store.db.sql.query<{ children: number; rooms: number; memories: number }>(
    `WITH gone AS (DELETE FROM documents WHERE id = $1::uuid RETURNING id)
     SELECT (SELECT count(*) FROM documents WHERE parent_id = $1::uuid)::int AS children,
            (SELECT count(*) FROM room_documents WHERE document_id = $1::uuid)::int AS rooms,
            (SELECT count(*) FROM memory_doc_refs WHERE document_id = $1::uuid)::int AS memories`,
    [doc.id],
  );
  (await documentIndex(store)).remove(doc.id);
  return {
    reparented_children: Number(counts?.children ?? 0),
    room_refs: Number(counts?.rooms ?? 0),
    memory_refs: Number(counts?.memories ?? 0),
  };
}

export interface DocumentListFilter {
  namespace?: string | undefined;
  rootsOnly: boolean;
  /** Children of this document (null or undefined: any parent). */
  parent?: DocumentRef | null | undefined;
  limit: number;
  offset: number;
}

/** Documents in tree order: by parent, then sort order, then slug. */
export async function listDocuments(store: MemoryStore, filter: DocumentListFilter): Promise<DocumentRow[]> {
  const parentId = filter.parent ? (await requireDocument(store, filter.parent)).id : undefined;
  if (filter.rootsOnly && parentId) throw invalid('roots_only and parent cannot be combined');
  const params: unknown[] = [];
  const where: string[] = [];
  if (filter.namespace !== undefined) {
    params.push(filter.namespace);
    where.push(`d.namespace = $${params.length}`);
  }
  if (filter.rootsOnly) where.push('d.parent_id IS NULL');
  if (parentId !== undefined) {
    params.push(parentId);
    where.push(`d.parent_id = $${params.length}::uuid`);
  }
  params.push(filter.limit, filter.offset);
  return store.db.sql.query<DocumentRow>(
    `SELECT ${DOC_SELECT} FROM documents d ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY d.namespace, parent_slug NULLS FIRST, d.sort_order, d.slug
      LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
}

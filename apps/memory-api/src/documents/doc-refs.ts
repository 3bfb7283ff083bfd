import { notFound } from '../domain-error.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { toMemoryJson } from '../memories/record.ts';
import { fromSqlRow, MEMORY_SELECT } from '../memories/sql-rows.ts';
import { DOC_SELECT, type DocumentRow, toDocumentJson } from './document-store.ts';
import { mentionedSlugs } from './slugs.ts';

/**
 * Memory -> document references (table memory_doc_refs) come from mentions only: a memory whose
 * content says `[[slug]]` or `doc:slug` references the document with that slug in the memory's own
 * namespace. They are recomputed whenever a memory's content is written and filled in when a
 * document is created after the memories that mention it. Deterministic: the same content and
 * documents give the same references, whatever the order they were written in.
 */
export async function linkMemoryMentions(
  store: MemoryStore,
  memory: { id: string; namespace: string; content: string },
): Promise<number> {
  const slugs = mentionedSlugs(memory.content);
  // One statement: replace the memory's references with those its content names now.
  const [row] = await store.db.sql.query<{ linked: number }>(
    `WITH cleared AS (DELETE FROM memory_doc_refs WHERE memory_id = $1::uuid),
          linked AS (
            INSERT INTO memory_doc_refs (memory_id, document_id, created_at)
            SELECT $1::uuid, d.id, now() FROM documents d
             WHERE d.namespace = $2 AND d.slug IN (SELECT jsonb_array_elements_text($3::jsonb))
            ON CONFLICT DO NOTHING RETURNING 1)
     SELECT count(*)::int AS linked FROM linked`,
    [memory.id, memory.namespace, JSON.stringify(slugs)],
  );
  return Number(row?.linked ?? 0);
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Links the memories of the document's namespace that already mention its slug. */
export async function linkDocumentMentions(
  store: MemoryStore,
  doc: { id: string; slug: string; namespace: string },
): Promise<number> {
  const slug = likeEscape(doc.slug);
  // LIKE narrows the candidates; the mention parser decides (so `doc:setup-guide` is no mention of `setup`).
  const candidates = await store.db.sql.query<{ id: string; content: string }>(
    `SELECT id::text AS id, content FROM memories
      WHERE namespace = $1 AND (content LIKE $2 OR content LIKE $3)`,
    [doc.namespace, `%[[${slug}]]%`, `%doc:${slug}%`],
  );
  const ids = candidates.filter((m) => mentionedSlugs(m.content).includes(doc.slug)).map((m) => m.id);
  if (ids.length === 0) return 0;
  await store.db.sql.query(
    `INSERT INTO memory_doc_refs (memory_id, document_id, created_at)
     SELECT (jsonb_array_elements_text($1::jsonb))::uuid, $2::uuid, now() ON CONFLICT DO NOTHING`,
    [JSON.stringify(ids), doc.id],
  );
  return ids.length;
}

/** Slugs of the documents each memory references, for `enrich` (every id gets an entry). */
export async function docSlugsOfMemories(store: MemoryStore, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map(ids.map((id) => [id, [] as string[]]));
  if (ids.length === 0) return out;
  const rows = await store.db.sql.query<{ memory_id: string; slug: string }>(
    `SELECT r.memory_id::text AS memory_id, d.slug FROM memory_doc_refs r JOIN documents d ON d.id = r.document_id
      WHERE r.memory_id IN (SELECT (jsonb_array_elements_text($1::jsonb))::uuid) ORDER BY d.slug`,
    [JSON.stringify(ids)],
  );
  for (const r of rows) out.get(r.memory_id)?.push(r.slug);
  return out;
}

/** Ids of the live memories that reference each document, oldest first (every id gets an entry). */
export async function liveMemoryIdsOfDocuments(store: MemoryStore, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map(ids.map((id) => [id, [] as string[]]));
  if (ids.length === 0) return out;
  const rows = await store.db.sql.query<{ document_id: string; memory_id: string }>(
    `SELECT r.document_id::text AS document_id, m.id::text AS memory_id
       FROM memory_doc_refs r JOIN memories m ON m.id = r.memory_id
      WHERE r.document_id IN (SELECT (jsonb_array_elements_text($1::jsonb))::uuid) AND m.status = 'active'
      ORDER BY m.created_at, m.id`,
    [JSON.stringify(ids)],
  );
  for (const r of rows) out.get(r.document_id)?.push(r.memory_id);
  return out;
}

/** The live memories that reference a document, oldest first. */
export async function memoriesReferencing(store: MemoryStore, documentId: string, take: number) {
  const rows = await store.db.sql.query(
    `SELECT ${MEMORY_SELECT} FROM memories WHERE status = 'active'
        AND id IN (SELECT memory_id FROM memory_doc_refs WHERE document_id = $1::uuid)
      ORDER BY created_at, id LIMIT $2`,
    [documentId, take],
  );
  return rows.map((r) => toMemoryJson(fromSqlRow(r)));
}

/** The rooms that reference a document, with who added it and when. */
export async function roomsReferencing(store: MemoryStore, documentId: string) {
  const rooms = await store.db.sql.query<{
    room_id: string;
    title: string;
    namespace: string;
    added_by: string | null;
    added_at: string;
  }>(
    `SELECT r.id AS room_id, r.title, r.namespace, rd.added_by, rd.added_at
       FROM room_documents rd JOIN rooms r ON r.id = rd.room_id
      WHERE rd.document_id = $1::uuid ORDER BY r.id`,
    [documentId],
  );
  return rooms.map((r) => ({ ...r, added_at: new Date(r.added_at).toISOString() }));
}

/** The documents a memory references, by slug (without content); NOT_FOUND for an unknown memory. */
export async function documentsReferencedBy(store: MemoryStore, memoryId: string) {
  if (!(await store.get(memoryId))) throw notFound(`no memory with id ${memoryId}`);
  const docs = await store.db.sql.query<DocumentRow>(
    `SELECT ${DOC_SELECT} FROM documents d
      WHERE d.id IN (SELECT document_id FROM memory_doc_refs WHERE memory_id = $1::uuid) ORDER BY d.slug`,
    [memoryId],
  );
  return docs.map((d) => toDocumentJson(d, false));
}

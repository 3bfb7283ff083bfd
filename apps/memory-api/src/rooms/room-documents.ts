import { createHash } from 'node:crypto';
import {
  createDocument,
  type DocumentRef,
  findDocument,
  requireDocument,
  toDocumentJson,
} from '../documents/document-store.ts';
import { invalid, notFound } from '../domain-error.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { rememberInRoom } from './room-remember.ts';
import type { RoomRow } from './room-store.ts';

/** The spec's line: content above this many characters is a room reference document; at or below, a memory. */
export const ROOM_DOCUMENT_MIN_CHARS = 500;

/** Links a document into a room; linking it again is a no-op (`added: false`). */
export async function addRoomDocument(store: MemoryStore, room: RoomRow, documentId: string, addedBy: string | null) {
  const rows = await store.db.sql.query(
    `INSERT INTO room_documents (room_id, document_id, added_by, added_at) VALUES ($1, $2::uuid, $3, now())
     ON CONFLICT DO NOTHING RETURNING 1`,
    [room.id, documentId, addedBy],
  );
  return rows.length > 0;
}

/** Removes a document's reference from a room (the document stays); INVALID when there is none. */
export async function removeRoomDocument(store: MemoryStore, room: RoomRow, doc: { id: string; slug: string }) {
  const rows = await store.db.sql.query(
    'DELETE FROM room_documents WHERE room_id = $1 AND document_id = $2::uuid RETURNING 1',
    [room.id, doc.id],
  );
  if (rows.length === 0) throw invalid(`document ${doc.slug} is not referenced from room ${room.id}`);
}

/** A document referenced from a room must live in the room's namespace: a room never leaks another tenant's pages. */
export async function roomDocumentRef(store: MemoryStore, room: RoomRow, ref: DocumentRef) {
  const doc = await requireDocument(store, ref);
  if (doc.namespace !== room.namespace) {
    throw notFound(`no document ${ref.id ?? JSON.stringify(ref.slug)} in the room's namespace ${room.namespace}`);
  }
  return doc;
}

/** A slug for a room document when the caller gives none: the room id and a content digest, so a retry finds the same one. */
function generatedSlug(room: RoomRow, content: string): string {
  const base = room.id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  const digest = createHash('sha256').update(content, 'utf8').digest('hex').slice(0, 12);
  return `room-${base || 'x'}-${digest}`;
}

export interface RoomDocumentInput {
  content: string;
  slug?: string | undefined;
  title?: string | undefined;
  tags: string[];
  author: string | null;
}

/**
 * `/room/document`: content above 500 characters becomes a document in the room's namespace,
 * referenced from the room; shorter content is stored as a `reference` memory of the room (the
 * same path as `/room/remember`), since a page that short reads better as a memory.
 */
export async function storeRoomDocument(store: MemoryStore, room: RoomRow, input: RoomDocumentInput) {
  if (input.content.length <= ROOM_DOCUMENT_MIN_CHARS) {
    if (input.slug !== undefined) {
      throw invalid(
        `content of ${ROOM_DOCUMENT_MIN_CHARS} characters or fewer is stored as a memory, which has no slug; omit slug or use /doc/create`,
      );
    }
    const stored = await rememberInRoom(
      store,
      room,
      { content: input.content, tags: input.tags, author: input.author ?? undefined },
      'reference',
    );
    return { created: stored.created, body: { stored_as: 'memory' as const, room_id: room.id, memory: stored.body } };
  }
  const slug = input.slug ?? generatedSlug(room, input.content);
  let doc = input.slug === undefined ? await findDocument(store, { slug, namespace: room.namespace }) : null;
  const created = doc === null;
  doc ??= await createDocument(store, {
    slug,
    namespace: room.namespace,
    title: input.title ?? '',
    content: input.content,
    tags: input.tags,
  });
  const added = await addRoomDocument(store, room, doc.id, input.author);
  return {
    created,
    body: { stored_as: 'document' as const, room_id: room.id, added, document: toDocumentJson(doc) },
  };
}

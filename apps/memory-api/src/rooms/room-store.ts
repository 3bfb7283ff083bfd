import { conflict, invalid, notFound } from '../domain-error.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { countRows, sqlIso } from '../memories/sql-rows.ts';

export const DEFAULT_ROOM_NAMESPACE = 'default';
export const ROOM_ID_MAX = 200;

export interface RoomRow {
  id: string;
  title: string;
  description: string;
  namespace: string;
  created_at: Date | string;
  updated_at: Date | string;
}

export function toRoomJson(row: RoomRow) {
  return {
    room_id: row.id,
    name: row.id,
    title: row.title,
    description: row.description,
    namespace: row.namespace,
    created_at: sqlIso(row.created_at),
    updated_at: sqlIso(row.updated_at),
  };
}

/** A room id: printable text (no control characters), trimmed, 1 to 200 characters. */
export function roomId(value: unknown, field = 'room_id'): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (typeof value !== 'string' || /[\u0000-\u001f\u007f]/.test(value) || value.trim() === '') {
    throw invalid(`${field} must be a non-empty string without control characters`);
  }
  const id = value.trim();
  if (id.length > ROOM_ID_MAX) throw invalid(`${field} must be at most ${ROOM_ID_MAX} characters`);
  return id;
}

const ROOM_SELECT = 'id, title, description, namespace, created_at, updated_at';

export async function findRoom(store: MemoryStore, id: string): Promise<RoomRow | null> {
  const [row] = await store.db.sql.query<RoomRow>(`SELECT ${ROOM_SELECT} FROM rooms WHERE id = $1`, [id]);
  return row ?? null;
}

export async function requireRoom(store: MemoryStore, id: string): Promise<RoomRow> {
  const row = await findRoom(store, id);
  if (!row) throw notFound(`no room ${JSON.stringify(id)}`);
  return row;
}

const isUniqueViolation = (err: unknown) =>
  /rooms_pkey|room_members_pkey|duplicate key/.test(String((err as Error).message));

export async function createRoom(
  store: MemoryStore,
  input: { id: string; title: string; description: string; namespace: string },
): Promise<RoomRow> {
  const [row] = await store.db.sql.query<RoomRow>(
    `INSERT INTO rooms (id, title, description, namespace, created_at, updated_at)
     VALUES ($1, $2, $3, $4, now(), now()) ON CONFLICT (id) DO NOTHING RETURNING ${ROOM_SELECT}`,
    [input.id, input.title, input.description, input.namespace],
  );
  if (!row) throw conflict(`room ${JSON.stringify(input.id)} already exists`);
  return row;
}

export interface RoomListEntry extends RoomRow {
  members: number;
  deprecated_members: number;
  documents: number;
}

/** Rooms by id, with live and deprecated member counts and document counts; `namespace` filters. */
export async function listRooms(store: MemoryStore, namespace?: string): Promise<RoomListEntry[]> {
  return store.db.sql.query<RoomListEntry>(
    `SELECT r.id, r.title, r.description, r.namespace, r.created_at, r.updated_at,
            (SELECT count(*) FROM room_members rm JOIN memories m ON m.id = rm.memory_id
              WHERE rm.room_id = r.id AND m.status = 'active')::int AS members,
            (SELECT count(*) FROM room_members rm JOIN memories m ON m.id = rm.memory_id
              WHERE rm.room_id = r.id AND m.status <> 'active')::int AS deprecated_members,
            (SELECT count(*) FROM room_documents rd WHERE rd.room_id = r.id)::int AS documents
       FROM rooms r WHERE ($1::text IS NULL OR r.namespace = $1) ORDER BY r.id`,
    [namespace ?? null],
  );
}

export async function updateRoom(
  store: MemoryStore,
  id: string,
  patch: { title?: string | undefined; description?: string | undefined },
): Promise<RoomRow> {
  const [row] = await store.db.sql.query<RoomRow>(
    `UPDATE rooms SET title = coalesce($2, title), description = coalesce($3, description), updated_at = now()
      WHERE id = $1 RETURNING ${ROOM_SELECT}`,
    [id, patch.title ?? null, patch.description ?? null],
  );
  if (!row) throw notFound(`no room ${JSON.stringify(id)}`);
  return row;
}

/**
 * Renames a room in one statement, so in one transaction: the registry row moves, every member
 * and document link follows by ON UPDATE CASCADE, and each member gets a `room_renamed` event.
 * A crash leaves the room under the old name or the new one, never split between them.
 */
export async function renameRoom(
  store: MemoryStore,
  from: string,
  to: string,
): Promise<{ from: string; to: string; members: number; documents: number }> {
  await requireRoom(store, from);
  if (await findRoom(store, to)) throw conflict(`room ${JSON.stringify(to)} already exists`);
  try {
    const [row] = await store.db.sql.query<{ renamed: number; members: number; documents: number }>(
      `WITH renamed AS (UPDATE rooms SET id = $2, updated_at = now() WHERE id = $1 RETURNING id),
            events AS (
              INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
              SELECT rm.memory_id, 'room_renamed', 'api', jsonb_build_object('from', $1::text, 'to', $2::text), now()
                FROM room_members rm, renamed WHERE rm.room_id = $1)
       SELECT (SELECT count(*) FROM renamed)::int AS renamed,
              (SELECT count(*) FROM room_members WHERE room_id = $1)::int AS members,
              (SELECT count(*) FROM room_documents WHERE room_id = $1)::int AS documents`,
      [from, to],
    );
    if (!row || Number(row.renamed) === 0) throw notFound(`no room ${JSON.stringify(from)}`);
    return { from, to, members: Number(row.members), documents: Number(row.documents) };
  } catch (err) {
    // Another request created `to` between the check and the update: the primary key decides.
    if (isUniqueViolation(err)) throw conflict(`room ${JSON.stringify(to)} already exists`);
    throw err;
  }
}

/** Deletes the room and its links (by cascade); memories and documents stay. */
export async function deleteRoom(
  store: MemoryStore,
  id: string,
): Promise<{ deleted: boolean; unlinked_memories: number; unlinked_documents: number }> {
  const [row] = await store.db.sql.query<{ deleted: number; members: number; documents: number }>(
    `WITH gone AS (DELETE FROM rooms WHERE id = $1 RETURNING id),
          events AS (
            INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
            SELECT rm.memory_id, 'room_left', 'api', jsonb_build_object('room_id', $1::text, 'reason', 'room_deleted'), now()
              FROM room_members rm, gone WHERE rm.room_id = $1)
     SELECT (SELECT count(*) FROM gone)::int AS deleted,
            (SELECT count(*) FROM room_members WHERE room_id = $1)::int AS members,
            (SELECT count(*) FROM room_documents WHERE room_id = $1)::int AS documents`,
    [id],
  );
  if (!row || Number(row.deleted) === 0) throw notFound(`no room ${JSON.stringify(id)}`);
  return { deleted: true, unlinked_memories: Number(row.members), unlinked_documents: Number(row.documents) };
}

export interface MemberLink {
  room_id: string;
  memory_id: string;
  author: string | null;
  role: string;
  joined_at: string;
}

const linkJson = (r: Record<string, unknown>): MemberLink => ({
  room_id: r.room_id as string,
  memory_id: r.memory_id as string,
  author: (r.author as string | null) ?? null,
  role: r.role as string,
  joined_at: sqlIso(r.joined_at),
});

/**
 * Links a memory into a room with a `room_joined` event. A memory already in the room keeps its
 * first link (author, role, joined_at): the answer says `linked: false`.
 */
export async function linkMember(
  store: MemoryStore,
  room: string,
  memoryId: string,
  author: string | null,
  role: string,
): Promise<{ link: MemberLink; linked: boolean }> {
  const [inserted] = await store.db.sql.query(
    `WITH link AS (
       INSERT INTO room_members (room_id, memory_id, author, role, joined_at)
       VALUES ($1, $2::uuid, $3, $4, now()) ON CONFLICT DO NOTHING
       RETURNING room_id, memory_id::text AS memory_id, author, role, joined_at),
     events AS (
       INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
       SELECT $2::uuid, 'room_joined', coalesce($3, 'api'), jsonb_build_object('room_id', $1::text, 'role', $4::text), now()
         FROM link)
     SELECT * FROM link`,
    [room, memoryId, author, role],
  );
  if (inserted) return { link: linkJson(inserted), linked: true };
  const [existing] = await store.db.sql.query(
    `SELECT room_id, memory_id::text AS memory_id, author, role, joined_at FROM room_members
      WHERE room_id = $1 AND memory_id = $2::uuid`,
    [room, memoryId],
  );
  return { link: linkJson(existing as Record<string, unknown>), linked: false };
}

/** Moves a link to another room, keeping author, role and joined_at. */
export async function moveMember(store: MemoryStore, memoryId: string, from: string, to: string): Promise<MemberLink> {
  if (from === to) throw invalid('from_room and to_room are the same room');
  await requireRoom(store, to);
  try {
    const [moved] = await store.db.sql.query(
      `WITH moved AS (
         UPDATE room_members SET room_id = $3 WHERE room_id = $1 AND memory_id = $2::uuid
         RETURNING room_id, memory_id::text AS memory_id, author, role, joined_at),
       events AS (
         INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
         SELECT $2::uuid, 'room_moved', 'api', jsonb_build_object('from', $1::text, 'to', $3::text), now() FROM moved)
       SELECT * FROM moved`,
      [from, memoryId, to],
    );
    // No link to move: the statement changed nothing.
    if (!moved) throw notFound(`memory ${memoryId} has no link in room ${JSON.stringify(from)}`);
    return linkJson(moved);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`memory ${memoryId} is already in room ${JSON.stringify(to)}`);
    throw err;
  }
}

/** Member counts (deprecated included, then split), authors and documents of one room. */
export async function roomStats(store: MemoryStore, room: RoomRow) {
  const [counts] = await store.db.sql.query<Record<string, unknown>>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE m.status = 'active')::int AS active,
            count(*) FILTER (WHERE m.status <> 'active')::int AS deprecated,
            min(rm.joined_at) AS first_joined, max(rm.joined_at) AS last_joined
       FROM room_members rm JOIN memories m ON m.id = rm.memory_id WHERE rm.room_id = $1`,
    [room.id],
  );
  const authors = await store.db.sql.query<{ author: string | null; count: number }>(
    `SELECT rm.author, count(*)::int AS count FROM room_members rm WHERE rm.room_id = $1
      GROUP BY rm.author ORDER BY count(*) DESC, rm.author NULLS LAST`,
    [room.id],
  );
  const namespaces = await store.db.sql.query<{ namespace: string; count: number }>(
    `SELECT m.namespace, count(*)::int AS count FROM room_members rm JOIN memories m ON m.id = rm.memory_id
      WHERE rm.room_id = $1 GROUP BY m.namespace ORDER BY m.namespace`,
    [room.id],
  );
  const documents = await countRows(store.db.sql, 'room_documents WHERE room_id = $1', [room.id]);
  const at = (v: unknown) => (v ? sqlIso(v) : null);
  return {
    room_id: room.id,
    count: Number(counts?.total ?? 0),
    active: Number(counts?.active ?? 0),
    deprecated: Number(counts?.deprecated ?? 0),
    documents,
    authors: authors.map((a) => ({ author: a.author, count: Number(a.count) })),
    namespaces: namespaces.map((n) => ({ namespace: n.namespace, count: Number(n.count) })),
    first_joined: at(counts?.first_joined),
    last_joined: at(counts?.last_joined),
  };
}

import { invalid } from '../domain-error.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { inferMemoryType } from '../memories/memory-types.ts';
import { toMemoryJson } from '../memories/record.ts';
import { namespace, optionalString, tagList } from '../schemas/parse.ts';
import { linkMember, type RoomRow } from './room-store.ts';

export const DEFAULT_ROLE = 'participant';

/** As the request schema types it (routes/rooms/schemas.ts). */
export interface RoomRememberInput {
  content: string;
  author?: string | undefined;
  role?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  namespace?: string | undefined;
  tags?: string[] | undefined;
  type?: string | undefined;
}

/**
 * Stores a memory through the ordinary write path (near-duplicates, auto-links, timeline) and
 * links it into the room. When the store answers with an existing near-duplicate, that memory is
 * linked instead; a memory already in the room keeps its first link. The memory lands in the
 * room's namespace unless the request names another.
 */
export async function rememberInRoom(store: MemoryStore, room: RoomRow, body: RoomRememberInput, forceType?: string) {
  const content = body.content.trim();
  if (content === '') throw invalid('content must be a non-empty string');
  const type = forceType ?? body.type;
  const inferred = type === undefined;
  const author = optionalString(body.author, 'author') ?? null;
  const role = optionalString(body.role, 'role', 100) ?? DEFAULT_ROLE;
  const result = await store.remember({
    content,
    tags: tagList(body.tags) ?? [],
    namespace: namespace(body.namespace) ?? room.namespace,
    memoryType: type ?? inferMemoryType(content),
    metadata: { ...body.metadata },
    sourceType: 'user',
    evidence: { type_inferred: inferred, room_id: room.id, ...(author ? { author } : {}) },
  });
  const { link, linked } = await linkMember(store, room.id, result.row.id, author, role);
  return {
    created: result.created,
    body: Object.assign(
      toMemoryJson(result.row),
      { room_id: room.id, author: link.author, role: link.role, joined_at: link.joined_at, linked },
      result.created ? {} : { duplicate: true, similarity: Math.round((result.duplicateSimilarity ?? 1) * 1e4) / 1e4 },
    ),
  };
}

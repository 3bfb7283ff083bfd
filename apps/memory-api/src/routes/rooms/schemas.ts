import { Type } from 'typebox';
import { MAX_MERGES_PER_CALL } from '../../rooms/room-consolidate.ts';
import {
  Fraction,
  Limit,
  MemoryType,
  Metadata,
  Namespace,
  Offset,
  OptBool,
  OptText,
  Strict,
  Tags,
  Timestamp,
} from '../../schemas/fields.ts';

/** Request schemas of the room routes. */
const RoomId = Type.String({ description: 'room id' });
const roomOnly = Strict({ room_id: RoomId });

export const roomCreateBody = Strict({
  name: Type.String({ description: 'room id' }),
  title: OptText(),
  description: OptText(),
  namespace: Namespace,
});

export const roomRememberBody = Strict({
  room_id: RoomId,
  content: Type.String({ maxLength: 200_000 }),
  author: OptText('stored as the participant role in the room link'),
  role: OptText(),
  metadata: Metadata,
  namespace: Namespace,
  tags: Tags,
  type: Type.Optional(MemoryType),
});

export const roomRecallBody = Strict({
  room_id: RoomId,
  query: Type.Optional(Type.String({ maxLength: 10_000, description: 'empty or absent: chronological' })),
  at: Timestamp('time travel'),
  author: OptText(),
  namespace: Namespace,
  limit: Limit(1000),
  offset: Offset,
  min_score: Fraction('minimum score'),
});

export const roomSummaryBody = Strict({
  room_id: RoomId,
  threshold: Fraction('cluster threshold'),
  max_clusters: Limit(200, 'clusters shown, default 20'),
});
export const roomConsolidateBody = Strict({
  room_id: RoomId,
  threshold: Fraction('merge threshold'),
  apply: OptBool(),
  dry_run: OptBool(),
  max_merges: Limit(MAX_MERGES_PER_CALL, `merges this call, default ${MAX_MERGES_PER_CALL}`),
});
export const roomStatsBody = roomOnly;
export const roomListQuery = Strict({ namespace: Namespace });
export const roomMemoriesQuery = Strict({
  room_id: OptText('room id'),
  author: OptText(),
  namespace: Namespace,
  limit: Limit(1000),
  offset: Offset,
});
export const roomIdQuery = Strict({ room_id: OptText('room id') });
export const roomRenameBody = Strict({ from: Type.String(), to: Type.String() });
export const roomUpdateBody = Strict({ room_id: RoomId, title: OptText(), description: OptText() });
export const roomMemoryMoveBody = Strict({
  memory_id: Type.String(),
  from_room: Type.String(),
  to_room: Type.String(),
});
export const roomDocumentBody = Strict({
  room_id: RoomId,
  content: Type.String(),
  slug: OptText(),
  title: OptText(),
  tags: Tags,
  author: OptText(),
});
export const roomDocumentListBody = roomOnly;
const roomDocumentRef = { id: OptText('document id'), slug: OptText(), namespace: Namespace };
export const roomDocumentRefBody = Strict({ room_id: RoomId, ...roomDocumentRef, added_by: OptText() });
/** DELETE /room/document/remove: in the query, or (when the query names no room) a JSON body. */
export const roomDocumentRemoveQuery = Strict({ room_id: OptText('room id'), ...roomDocumentRef });

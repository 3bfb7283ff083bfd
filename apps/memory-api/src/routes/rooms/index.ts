import { badRequest } from '@trove/service-kit';
import {
  applyConsolidation,
  MAX_MERGES_PER_CALL,
  planConsolidation,
  SEGMENT_SIZE,
} from '../../rooms/room-consolidate.ts';
import { chronologicalMembers, type MemberFilter, semanticMembers } from '../../rooms/room-recall.ts';
import { rememberInRoom } from '../../rooms/room-remember.ts';
import {
  createRoom,
  DEFAULT_ROOM_NAMESPACE,
  deleteRoom,
  listRooms,
  moveMember,
  renameRoom,
  requireRoom,
  roomId,
  roomStats,
  toRoomJson,
  updateRoom,
} from '../../rooms/room-store.ts';
import { roomDocuments, summarizeRoom } from '../../rooms/room-summary.ts';
import { limit, namespace, optionalString, timestamp, uuid } from '../../schemas/parse.ts';
import { type RoutePlugin, read, write } from '../define.ts';
import {
  roomConsolidateBody,
  roomCreateBody,
  roomIdQuery,
  roomListQuery,
  roomMemoriesQuery,
  roomMemoryMoveBody,
  roomRecallBody,
  roomRememberBody,
  roomRenameBody,
  roomStatsBody,
  roomSummaryBody,
  roomUpdateBody,
} from './schemas.ts';

export const ROOM_RECALL_LIMIT = { default: 10, max: 100 };
export const ROOM_MEMORIES_LIMIT = 50;
export const SUMMARY_MAX_CLUSTERS = 20;

const description = (value: string | undefined) => {
  if (value !== undefined && value.length > 2000)
    throw badRequest('description must be a string of at most 2000 characters');
  return value;
};

export const roomRoutes: RoutePlugin = async (app, { store }) => {
  app.post(
    '/room/create',
    {
      schema: { body: roomCreateBody },
      config: write('creates a room (409 when the name is taken)', '{name, title?, description?, namespace?}', 'Room'),
    },
    async (request, reply) => {
      const body = request.body;
      const id = roomId(body.name, 'name');
      const row = await createRoom(store, {
        id,
        title: optionalString(body.title, 'title', 500) ?? id,
        description: description(body.description) ?? '',
        namespace: namespace(body.namespace) ?? DEFAULT_ROOM_NAMESPACE,
      });
      return reply.code(201).send(toRoomJson(row));
    },
  );

  app.get(
    '/room/list',
    {
      schema: { querystring: roomListQuery },
      config: read(
        'all rooms (of one namespace with ?namespace=), with member and document counts',
        'query namespace?',
        'Room[]',
      ),
    },
    async (request) => {
      const rows = await listRooms(store, namespace(request.query.namespace));
      return rows.map((r) => ({
        ...toRoomJson(r),
        members: Number(r.members),
        deprecated_members: Number(r.deprecated_members),
        documents: Number(r.documents),
      }));
    },
  );

  app.post(
    '/room/remember',
    {
      schema: { body: roomRememberBody },
      config: write(
        'stores a memory and links it into the room (an existing near-duplicate is linked instead)',
        'RoomRememberRequest',
        'RoomMemory',
      ),
    },
    async (request, reply) => {
      const room = await requireRoom(store, roomId(request.body.room_id));
      const stored = await rememberInRoom(store, room, request.body);
      return reply.code(stored.created ? 201 : 200).send(stored.body);
    },
  );

  const memberFilter = (q: { author?: string; namespace?: string; at?: string }): MemberFilter => ({
    author: optionalString(q.author, 'author'),
    namespace: namespace(q.namespace),
    at: timestamp(q.at, 'at'),
  });
  /** A page of a room's memories in join order. */
  const page = (q: { limit?: number; offset?: number }) => ({
    limit: q.limit ?? ROOM_MEMORIES_LIMIT,
    offset: q.offset ?? 0,
  });

  app.post(
    '/room/recall',
    {
      schema: { body: roomRecallBody },
      config: read(
        'semantic search among a room’s memories; chronological without a query',
        'RoomRecallRequest',
        'RoomMemory[]',
      ),
    },
    async (request) => {
      const body = request.body;
      const room = await requireRoom(store, roomId(body.room_id));
      const query = body.query?.trim() ?? '';
      const filter = memberFilter(body);
      const minScore = body.min_score ?? 0;
      if (!query) return chronologicalMembers(store, room.id, filter, page(body));
      return semanticMembers(store, room.id, query, filter, {
        limit: limit(body.limit, ROOM_RECALL_LIMIT.default, ROOM_RECALL_LIMIT.max),
        minScore,
      });
    },
  );

  app.get(
    '/room/memories',
    {
      schema: { querystring: roomMemoriesQuery },
      config: read(
        'a room’s memories in the order they joined; optional author, namespace',
        'query room_id, author?, namespace?, limit?, offset?',
        'RoomMemory[]',
      ),
    },
    async (request) => {
      const q = request.query;
      const room = await requireRoom(store, roomId(q.room_id));
      return chronologicalMembers(store, room.id, memberFilter(q), page(q));
    },
  );

  const summaryOptions = (body: { threshold?: number; max_clusters?: number }) => ({
    threshold: body.threshold ?? store.thresholds.link,
    maxClusters: body.max_clusters ?? SUMMARY_MAX_CLUSTERS,
  });

  app.post(
    '/room/summary',
    {
      schema: { body: roomSummaryBody },
      config: read(
        'statistics and memory clusters of a room (deprecated memories excluded)',
        '{room_id, threshold?, max_clusters?}',
        'RoomSummary',
      ),
    },
    async (request) => {
      const room = await requireRoom(store, roomId(request.body.room_id));
      return summarizeRoom(store, room, summaryOptions(request.body));
    },
  );

  app.post(
    '/room/summary-document',
    {
      schema: { body: roomSummaryBody },
      config: read(
        'a room summary of its reference memories and documents (deprecated excluded)',
        '{room_id, threshold?, max_clusters?}',
        'RoomDocumentSummary',
      ),
    },
    async (request) => {
      const room = await requireRoom(store, roomId(request.body.room_id));
      const summary = await summarizeRoom(store, room, { ...summaryOptions(request.body), types: ['reference'] });
      const documents = await roomDocuments(store, room.id);
      return {
        ...summary,
        documents,
        document_stats: { documents: documents.length, chars: documents.reduce((n, d) => n + d.chars, 0) },
      };
    },
  );

  app.post(
    '/room/consolidate',
    {
      schema: { body: roomConsolidateBody },
      config: write(
        `plans (default) or applies merging of near-duplicate room members, at most ${MAX_MERGES_PER_CALL} per call`,
        '{room_id, threshold?, apply?, dry_run?, max_merges?}',
        'RoomConsolidation',
      ),
    },
    async (request) => {
      const body = request.body;
      const room = await requireRoom(store, roomId(body.room_id));
      if (body.apply === true && body.dry_run === true) throw badRequest('apply and dry_run contradict each other');
      const apply = body.apply === true || body.dry_run === false;
      const threshold = body.threshold ?? store.thresholds.duplicate;
      const budget = body.max_merges ?? MAX_MERGES_PER_CALL;
      const plan = await planConsolidation(store, room.id, threshold);
      const candidates = plan.groups.reduce((n, g) => n + g.remove.length, 0);
      const base = {
        room_id: room.id,
        threshold,
        segment_size: SEGMENT_SIZE,
        segments: plan.segments,
        members: plan.members,
        candidates,
        budget_cap: MAX_MERGES_PER_CALL,
        plan: plan.groups,
      };
      if (!apply) return { ...base, dry_run: true, applied: 0, remaining: candidates };
      const retired = await applyConsolidation(store, room.id, plan.groups, budget);
      return {
        ...base,
        dry_run: false,
        budget,
        applied: retired.length,
        deprecated: retired,
        remaining: Math.max(0, candidates - retired.length),
      };
    },
  );

  app.post(
    '/room/stats',
    {
      schema: { body: roomStatsBody },
      config: read(
        'member counts of a room, deprecated memories included, then split active/deprecated',
        '{room_id}',
        'RoomStats',
      ),
    },
    async (request) => roomStats(store, await requireRoom(store, roomId(request.body.room_id))),
  );

  app.delete(
    '/room/delete',
    {
      schema: { querystring: roomIdQuery, body: roomIdQuery },
      config: write(
        'deletes a room and its links; memories and documents stay',
        'query room_id',
        '{deleted, room_id, unlinked_memories, unlinked_documents}',
      ),
    },
    async (request) => {
      const id = roomId(request.query.room_id ?? request.body.room_id);
      return { room_id: id, ...(await deleteRoom(store, id)) };
    },
  );

  app.post(
    '/room/rename',
    {
      schema: { body: roomRenameBody },
      config: write(
        'renames a room with all its member and document links, in one transaction',
        '{from, to}',
        '{from, to, members, documents}',
      ),
    },
    async (request) => {
      const from = roomId(request.body.from, 'from');
      const to = roomId(request.body.to, 'to');
      if (from === to) throw badRequest('from and to are the same room');
      return renameRoom(store, from, to);
    },
  );

  app.post(
    '/room/update',
    {
      schema: { body: roomUpdateBody },
      config: write(
        'changes the title and/or description of a room; omitted fields stay',
        '{room_id, title?, description?}',
        'Room',
      ),
    },
    async (request) => {
      const body = request.body;
      const id = roomId(body.room_id);
      const patch = { title: optionalString(body.title, 'title', 500), description: description(body.description) };
      return toRoomJson(await updateRoom(store, id, patch));
    },
  );

  app.post(
    '/room/memory/move',
    {
      schema: { body: roomMemoryMoveBody },
      config: write(
        'moves a memory’s link to another room, keeping author, role and joined_at',
        '{memory_id, from_room, to_room}',
        'RoomLink',
      ),
    },
    async (request) => {
      const body = request.body;
      return moveMember(
        store,
        uuid(body.memory_id, 'memory_id'),
        roomId(body.from_room, 'from_room'),
        roomId(body.to_room, 'to_room'),
      );
    },
  );
};

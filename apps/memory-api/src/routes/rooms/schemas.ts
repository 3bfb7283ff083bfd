import { offsetField } from '../../schemas/requests.ts';

/**
 * Request schemas of the room routes. As in schemas/requests.ts, fields the spec leaves untyped
 * are listed without a type and checked by the handlers; unknown fields are ignored.
 */
const any = {};
const stringArray = { type: 'array', items: { type: 'string' } } as const;
const roomOnly = { type: 'object', required: ['room_id'], properties: { room_id: any } } as const;

export const roomCreateBody = {
  type: 'object',
  required: ['name'],
  properties: { name: any, title: any, description: any, namespace: any },
} as const;

export const roomRememberBody = {
  type: 'object',
  required: ['room_id', 'content'],
  properties: {
    room_id: any,
    content: { type: 'string', maxLength: 200_000 },
    author: any,
    role: any,
    metadata: any,
    namespace: any,
    tags: stringArray,
    type: any,
  },
} as const;

export const roomRecallBody = {
  type: 'object',
  required: ['room_id'],
  properties: {
    room_id: any,
    query: any,
    at: any,
    author: any,
    namespace: any,
    limit: { type: 'integer' },
    offset: offsetField,
    min_score: any,
  },
} as const;

export const roomSummaryBody = {
  type: 'object',
  required: ['room_id'],
  properties: { room_id: any, threshold: any, max_clusters: { type: 'integer' } },
} as const;

export const roomConsolidateBody = {
  type: 'object',
  required: ['room_id'],
  properties: {
    room_id: any,
    threshold: any,
    apply: { type: 'boolean' },
    dry_run: { type: 'boolean' },
    max_merges: { type: 'integer' },
  },
} as const;

export const roomStatsBody = roomOnly;

export const roomListQuery = { type: 'object', properties: { namespace: { type: 'string' } } } as const;

export const roomMemoriesQuery = {
  type: 'object',
  properties: {
    room_id: { type: 'string' },
    author: { type: 'string' },
    namespace: { type: 'string' },
    limit: { type: 'integer' },
    offset: offsetField,
  },
} as const;

export const roomIdQuery = { type: 'object', properties: { room_id: { type: 'string' } } } as const;

export const roomRenameBody = {
  type: 'object',
  required: ['from', 'to'],
  properties: { from: any, to: any },
} as const;

export const roomUpdateBody = {
  type: 'object',
  required: ['room_id'],
  properties: { room_id: any, title: any, description: any },
} as const;

export const roomMemoryMoveBody = {
  type: 'object',
  required: ['memory_id', 'from_room', 'to_room'],
  properties: { memory_id: any, from_room: any, to_room: any },
} as const;

export const roomDocumentBody = {
  type: 'object',
  required: ['room_id', 'content'],
  properties: {
    room_id: any,
    content: { type: 'string' },
    slug: any,
    title: any,
    tags: stringArray,
    author: any,
  },
} as const;

export const roomDocumentListBody = roomOnly;

export const roomDocumentRefBody = {
  type: 'object',
  required: ['room_id'],
  properties: { room_id: any, id: any, slug: any, namespace: any, added_by: any },
} as const;

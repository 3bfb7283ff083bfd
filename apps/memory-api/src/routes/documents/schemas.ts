import { offsetField } from '../../schemas/requests.ts';

/**
 * Request schemas of the document routes. As in schemas/requests.ts, fields the spec leaves
 * untyped are listed without a type and checked by the handlers, so a wrong value gets a message
 * naming the field. Unknown fields are ignored, as on the other routes.
 */
const any = {};
const stringArray = { type: 'array', items: { type: 'string' } } as const;
const ref = { id: any, slug: any, namespace: any } as const;

export const docCreateBody = {
  type: 'object',
  required: ['slug', 'content'],
  properties: {
    slug: { type: 'string' },
    content: { type: 'string' },
    title: any,
    tags: stringArray,
    parent: any,
    namespace: any,
    sort_order: any,
  },
} as const;

export const docRefBody = { type: 'object', properties: ref } as const;
export const docRefQuery = {
  type: 'object',
  properties: { id: { type: 'string' }, slug: { type: 'string' }, namespace: { type: 'string' } },
} as const;

export const docListBody = {
  type: 'object',
  properties: {
    namespace: any,
    limit: { type: 'integer' },
    offset: offsetField,
    roots_only: { type: 'boolean' },
    parent: any,
  },
} as const;

export const docSearchBody = {
  type: 'object',
  required: ['query'],
  properties: {
    query: { type: 'string', maxLength: 10_000 },
    mode: any,
    namespace: any,
    limit: { type: 'integer' },
    tags: stringArray,
  },
} as const;

export const docUpdateBody = {
  type: 'object',
  properties: { ...ref, content: any, title: any, tags: any, parent: any },
} as const;

export const docMoveBody = {
  type: 'object',
  properties: { ...ref, new_parent: any, new_sort_order: any },
} as const;

export const docRefsBody = {
  type: 'object',
  properties: { ...ref, limit: { type: 'integer' } },
} as const;

export const memoryDocRefsBody = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } as const;

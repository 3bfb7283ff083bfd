/**
 * Request schemas of the graph, edges and supersession routes. As in src/schemas/requests.ts,
 * fields the spec leaves untyped are listed without a type and checked by the handlers, so a wrong
 * value gets a message that names the field; unknown fields are ignored like everywhere else.
 */
const any = {};

export const graphQuery = {
  type: 'object',
  properties: {
    namespace: { type: 'string' },
    node_id: { type: 'string' },
    limit: { type: 'integer' },
    depth: { type: 'integer' },
  },
} as const;

export const graphEdgeBody = {
  type: 'object',
  required: ['source', 'target'],
  properties: { source: { type: 'string' }, target: { type: 'string' }, edge_type: any, weight: any },
} as const;

export const graphEdgeDeleteQuery = {
  type: 'object',
  properties: { source: { type: 'string' }, target: { type: 'string' }, edge_type: { type: 'string' } },
} as const;

export const contradictionsQuery = {
  type: 'object',
  properties: { namespace: { type: 'string' }, limit: { type: 'integer' } },
} as const;

export const contradictionUndoBody = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' } },
} as const;

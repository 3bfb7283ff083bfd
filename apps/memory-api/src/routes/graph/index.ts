import { badRequest, notFound } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { edgeWeight, writableEdgeType } from '../../graph/edge-types.ts';
import { linkEndpoints, unlinkEndpoints } from '../../graph/explicit-edges.ts';
import {
  GRAPH_DEFAULT_DEPTH,
  GRAPH_DEFAULT_LIMIT,
  GRAPH_MAX_DEPTH,
  GRAPH_MAX_LIMIT,
  readGraph,
} from '../../graph/graph-view.ts';
import { memoryEdges, rebuildBacklinks } from '../../graph/memory-edges.ts';
import {
  CONTRADICTIONS_DEFAULT_LIMIT,
  CONTRADICTIONS_MAX_LIMIT,
  listContradictions,
  undoSupersession,
} from '../../graph/supersession.ts';
import { limit, namespace, uuid } from '../../schemas/parse.ts';
import { idQuery } from '../../schemas/requests.ts';
import {
  contradictionsQuery,
  contradictionUndoBody,
  graphEdgeBody,
  graphEdgeDeleteQuery,
  graphQuery,
} from './schemas.ts';

export const graphRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  app.get<{ Querystring: { namespace?: string; node_id?: string; limit?: number; depth?: number } }>(
    '/graph',
    {
      schema: { querystring: graphQuery },
      config: {
        access: 'read',
        description: `live memories and their edges (memory edges plus explicit edges); node_id gives a neighbourhood of depth 1 to ${GRAPH_MAX_DEPTH}; limit edges (default ${GRAPH_DEFAULT_LIMIT}, at most ${GRAPH_MAX_LIMIT})`,
        requestType: 'query namespace, node_id, depth, limit',
        responseType: '{nodes, edges, truncated}',
      },
    },
    async (request) => {
      const q = request.query;
      const nodeId = q.node_id === undefined ? undefined : uuid(q.node_id, 'node_id');
      if (q.depth !== undefined && nodeId === undefined) throw badRequest('depth needs node_id');
      return readGraph(store, {
        namespace: namespace(q.namespace),
        nodeId,
        depth: limit(q.depth, GRAPH_DEFAULT_DEPTH, GRAPH_MAX_DEPTH, 'depth'),
        limit: limit(q.limit, GRAPH_DEFAULT_LIMIT, GRAPH_MAX_LIMIT),
      });
    },
  );

  app.post<{ Body: { source: string; target: string; edge_type?: unknown; weight?: unknown } }>(
    '/graph/edge',
    {
      schema: { body: graphEdgeBody },
      config: {
        access: 'write',
        description: 'creates (or re-weights) an explicit edge between memories or graph nodes',
        requestType: 'GraphEdgeRequest',
        responseType: '{ok, created, source_node, target_node, edge}',
      },
    },
    async (request, reply) => {
      const body = request.body;
      const result = await linkEndpoints(store, {
        source: uuid(body.source, 'source'),
        target: uuid(body.target, 'target'),
        edgeType: writableEdgeType(body.edge_type),
        weight: edgeWeight(body.weight),
      });
      return reply.code(result.created ? 201 : 200).send(result);
    },
  );

  app.delete<{ Querystring: { source?: string; target?: string; edge_type?: string } }>(
    '/graph/edge',
    {
      schema: { querystring: graphEdgeDeleteQuery },
      config: {
        access: 'write',
        description: 'removes the edges from source to target (optionally of one edge_type)',
        requestType: 'query source, target, edge_type',
        responseType: '{ok, deleted, source_node, target_node, edges}',
      },
    },
    async (request) =>
      unlinkEndpoints(store, {
        source: uuid(request.query.source, 'source'),
        target: uuid(request.query.target, 'target'),
        edgeType: writableEdgeType(request.query.edge_type),
      }),
  );

  app.get<{ Querystring: { id?: string } }>(
    '/edges',
    {
      schema: { querystring: idQuery },
      config: {
        access: 'read',
        description: 'all edges of one memory, outgoing and incoming, with its referenced_by backlinks',
        requestType: 'query id',
        responseType: '{id, status, outgoing, incoming, referenced_by}',
      },
    },
    async (request) => {
      const id = uuid(request.query.id);
      const row = await store.get(id);
      if (!row) throw notFound(`no memory with id ${id}`);
      return { id, status: row.status, ...(await memoryEdges(store, id)) };
    },
  );

  app.post(
    '/rebuild-backlinks',
    {
      config: {
        access: 'write',
        description: 'recomputes the referenced_by backlinks from memory edges and explicit edges',
        requestType: 'none',
        responseType: '{ok, removed, added, backlinks, from_memory_edges, from_graph_edges, took_ms}',
      },
    },
    async () => rebuildBacklinks(store),
  );

  app.get<{ Querystring: { namespace?: string; limit?: number } }>(
    '/contradictions',
    {
      schema: { querystring: contradictionsQuery },
      config: {
        access: 'read',
        description: `superseded-but-not-restored memories with the memory that superseded each (limit default ${CONTRADICTIONS_DEFAULT_LIMIT}, at most ${CONTRADICTIONS_MAX_LIMIT})`,
        requestType: 'query namespace, limit',
        responseType: '{contradictions, count, truncated}',
      },
    },
    async (request) =>
      listContradictions(
        store,
        namespace(request.query.namespace),
        limit(request.query.limit, CONTRADICTIONS_DEFAULT_LIMIT, CONTRADICTIONS_MAX_LIMIT),
      ),
  );

  app.post<{ Body: { id: string } }>(
    '/contradictions/undo',
    {
      schema: { body: contradictionUndoBody },
      config: {
        access: 'write',
        description: 'restores a superseded memory and removes its supersession pair',
        requestType: 'ContradictionUndoRequest',
        responseType: '{ok, memory, superseded_by}',
      },
    },
    async (request) => undoSupersession(store, uuid(request.body.id)),
  );
};

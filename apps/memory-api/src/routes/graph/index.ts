import { badRequest, notFound } from '@trove/service-kit';
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
import { namespace, uuid } from '../../schemas/parse.ts';
import { idQuery, noFields } from '../../schemas/requests.ts';
import { type RoutePlugin, read, write } from '../define.ts';
import {
  contradictionsQuery,
  contradictionUndoBody,
  graphEdgeBody,
  graphEdgeDeleteQuery,
  graphQuery,
} from './schemas.ts';

export const graphRoutes: RoutePlugin = async (app, { store }) => {
  app.get(
    '/graph',
    {
      schema: { querystring: graphQuery },
      config: read(
        `live memories and their edges (memory edges plus explicit edges); node_id gives a neighbourhood of depth 1 to ${GRAPH_MAX_DEPTH}; limit edges (default ${GRAPH_DEFAULT_LIMIT}, at most ${GRAPH_MAX_LIMIT})`,
        'query namespace, node_id, depth, limit',
        '{nodes, edges, truncated}',
      ),
    },
    async (request) => {
      const q = request.query;
      const nodeId = q.node_id === undefined ? undefined : uuid(q.node_id, 'node_id');
      if (q.depth !== undefined && nodeId === undefined) throw badRequest('depth needs node_id');
      return readGraph(store, {
        namespace: namespace(q.namespace),
        nodeId,
        depth: q.depth ?? GRAPH_DEFAULT_DEPTH,
        limit: q.limit ?? GRAPH_DEFAULT_LIMIT,
      });
    },
  );

  app.post(
    '/graph/edge',
    {
      schema: { body: graphEdgeBody },
      config: write(
        'creates (or re-weights) an explicit edge between memories or graph nodes',
        'GraphEdgeRequest',
        '{ok, created, source_node, target_node, edge}',
      ),
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

  app.delete(
    '/graph/edge',
    {
      schema: { querystring: graphEdgeDeleteQuery, body: graphEdgeDeleteQuery },
      config: write(
        'removes the edges from source to target (optionally of one edge_type); query or body',
        'query source, target, edge_type',
        '{ok, deleted, source_node, target_node, edges}',
      ),
    },
    async ({ query, body }) => {
      const q = query.source !== undefined || query.target !== undefined ? query : body;
      return unlinkEndpoints(store, {
        source: uuid(q.source, 'source'),
        target: uuid(q.target, 'target'),
        edgeType: writableEdgeType(q.edge_type),
      });
    },
  );

  app.get(
    '/edges',
    {
      schema: { querystring: idQuery },
      config: read(
        'all edges of one memory, outgoing and incoming, with its referenced_by backlinks',
        'query id',
        '{id, status, outgoing, incoming, referenced_by}',
      ),
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
      schema: { body: noFields },
      config: write(
        'recomputes the referenced_by backlinks from memory edges and explicit edges',
        'none',
        '{ok, removed, added, backlinks, from_memory_edges, from_graph_edges, took_ms}',
      ),
    },
    async () => rebuildBacklinks(store),
  );

  app.get(
    '/contradictions',
    {
      schema: { querystring: contradictionsQuery },
      config: read(
        `superseded-but-not-restored memories with the memory that superseded each (limit default ${CONTRADICTIONS_DEFAULT_LIMIT}, at most ${CONTRADICTIONS_MAX_LIMIT})`,
        'query namespace, limit',
        '{contradictions, count, truncated}',
      ),
    },
    async (request) =>
      listContradictions(
        store,
        namespace(request.query.namespace),
        request.query.limit ?? CONTRADICTIONS_DEFAULT_LIMIT,
      ),
  );

  app.post(
    '/contradictions/undo',
    {
      schema: { body: contradictionUndoBody },
      config: write(
        'restores a superseded memory and removes its supersession pair',
        'ContradictionUndoRequest',
        '{ok, memory, superseded_by}',
      ),
    },
    async (request) => undoSupersession(store, uuid(request.body.id)),
  );
};

import { Type } from 'typebox';
import { GRAPH_MAX_DEPTH, GRAPH_MAX_LIMIT } from '../../graph/graph-view.ts';
import { CONTRADICTIONS_MAX_LIMIT } from '../../graph/supersession.ts';
import { Id, Limit, Namespace, OptText, Strict, Text } from '../../schemas/fields.ts';

/** Request schemas of the graph, edges and supersession routes. */
const opt = Type.Optional;

export const graphQuery = Strict({
  namespace: Namespace,
  node_id: OptText('a memory id: its neighbourhood'),
  limit: Limit(GRAPH_MAX_LIMIT),
  depth: opt(Type.Integer({ minimum: 1, maximum: GRAPH_MAX_DEPTH, description: 'hops from node_id' })),
});

export const graphEdgeBody = Strict({
  source: Text('memory or graph node id'),
  target: Text('memory or graph node id'),
  edge_type: OptText('default related_to'),
  weight: opt(Type.Number({ description: 'above 0.0, at most 1.0' })),
});

export const graphEdgeDeleteQuery = Strict({ source: OptText(), target: OptText(), edge_type: OptText() });
export const contradictionsQuery = Strict({ namespace: Namespace, limit: Limit(CONTRADICTIONS_MAX_LIMIT) });
export const contradictionUndoBody = Strict({ id: Id });

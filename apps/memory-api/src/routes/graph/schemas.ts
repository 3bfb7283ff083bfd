import { Type } from 'typebox';
import { Id, Limit, Namespace, OptInt, OptText, Strict, Text } from '../../schemas/fields.ts';

/** Request schemas of the graph, edges and supersession routes. */
const opt = Type.Optional;

export const graphQuery = Strict({
  namespace: Namespace,
  node_id: OptText('a memory id: its neighbourhood'),
  limit: opt(Type.Integer({ description: 'edges, default 500, at most 5000' })),
  depth: OptInt('hops from node_id'),
});

export const graphEdgeBody = Strict({
  source: Text('memory or graph node id'),
  target: Text('memory or graph node id'),
  edge_type: OptText('default related_to'),
  weight: opt(Type.Number({ description: 'above 0.0, at most 1.0' })),
});

export const graphEdgeDeleteQuery = Strict({ source: OptText(), target: OptText(), edge_type: OptText() });
export const contradictionsQuery = Strict({ namespace: Namespace, limit: Limit });
export const contradictionUndoBody = Strict({ id: Id });

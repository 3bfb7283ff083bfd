import { memoryStats } from '../../memories/stats.ts';
import { namespace } from '../../schemas/parse.ts';
import { namespaceQuery, statsBody } from '../../schemas/requests.ts';
import { type RoutePlugin, read } from '../define.ts';

export const statsRoutes: RoutePlugin = async (app, { store }) => {
  const what = 'memory statistics (count and others)';
  app.get('/stats', { schema: { querystring: namespaceQuery }, config: read(what, 'query namespace', 'Stats') }, (r) =>
    memoryStats(store, namespace(r.query.namespace)),
  );
  app.post('/stats', { schema: { body: statsBody }, config: read(what, '{namespace}', 'Stats') }, (r) =>
    memoryStats(store, namespace(r.body.namespace)),
  );
};

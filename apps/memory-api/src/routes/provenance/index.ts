import {
  memoryTimeline,
  provenanceReport,
  TIMELINE_DEFAULT_LIMIT,
  TIMELINE_MAX_LIMIT,
} from '../../graph/provenance.ts';
import { uuid } from '../../schemas/parse.ts';
import { type RoutePlugin, read } from '../define.ts';
import { idLimitQuery } from './schemas.ts';

export const provenanceRoutes: RoutePlugin = async (app, { store }) => {
  app.get(
    '/timeline',
    {
      schema: { querystring: idLimitQuery },
      config: read(
        `timeline events of a memory in write order (limit default ${TIMELINE_DEFAULT_LIMIT}, at most ${TIMELINE_MAX_LIMIT})`,
        'query id, limit',
        '{id, events, truncated}',
      ),
    },
    async ({ query }) => memoryTimeline(store, uuid(query.id), query.limit ?? TIMELINE_DEFAULT_LIMIT),
  );

  app.get(
    '/provenance',
    {
      schema: { querystring: idLimitQuery },
      config: read(
        'provenance report: author and source, trust tier, hashes with tamper evidence, event chain',
        'query id, limit',
        'ProvenanceReport',
      ),
    },
    async (request) => provenanceReport(store, uuid(request.query.id), request.query.limit ?? TIMELINE_DEFAULT_LIMIT),
  );
};

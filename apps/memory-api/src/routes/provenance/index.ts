import { notFound } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { provenanceReport, readTimeline, TIMELINE_DEFAULT_LIMIT, TIMELINE_MAX_LIMIT } from '../../graph/provenance.ts';
import { limit, uuid } from '../../schemas/parse.ts';
import { idLimitQuery } from './schemas.ts';

export const provenanceRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  app.get<{ Querystring: { id?: string; limit?: number } }>(
    '/timeline',
    {
      schema: { querystring: idLimitQuery },
      config: {
        access: 'read',
        description: `timeline events of a memory in write order (limit default ${TIMELINE_DEFAULT_LIMIT}, at most ${TIMELINE_MAX_LIMIT})`,
        requestType: 'query id, limit',
        responseType: '{id, events, truncated}',
      },
    },
    async (request) => {
      const id = uuid(request.query.id);
      const max = limit(request.query.limit, TIMELINE_DEFAULT_LIMIT, TIMELINE_MAX_LIMIT);
      const exists = await store.prisma.memory.count({ where: { id } });
      if (exists === 0) throw notFound(`no memory with id ${id}`);
      return { id, ...(await readTimeline(store, id, max)) };
    },
  );

  app.get<{ Querystring: { id?: string; limit?: number } }>(
    '/provenance',
    {
      schema: { querystring: idLimitQuery },
      config: {
        access: 'read',
        description: 'provenance report: author and source, trust tier, hashes with tamper evidence, event chain',
        requestType: 'query id, limit',
        responseType: 'ProvenanceReport',
      },
    },
    async (request) =>
      provenanceReport(
        store,
        uuid(request.query.id),
        limit(request.query.limit, TIMELINE_DEFAULT_LIMIT, TIMELINE_MAX_LIMIT),
      ),
  );
};

import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import type { MemoryStore } from '../../memories/memory-store.ts';
import { namespace } from '../../schemas/parse.ts';
import { namespaceQuery, statsBody } from '../../schemas/requests.ts';

interface StatsRow {
  total: number;
  active: number;
  deprecated: number;
  pinned: number;
  embedded: number;
  avg_importance: number | null;
  access_total: number;
  oldest: Date | null;
  newest: Date | null;
  namespaces: number;
}

async function stats(store: MemoryStore, ns: string | undefined) {
  const params: unknown[] = ns === undefined ? [] : [ns];
  const where = ns === undefined ? '' : 'WHERE namespace = $1';
  const [s] = await store.prisma.$queryRawUnsafe<StatsRow[]>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE status = 'active')::int AS active,
            count(*) FILTER (WHERE status = 'deprecated')::int AS deprecated,
            count(*) FILTER (WHERE pinned AND status = 'active')::int AS pinned,
            count(*) FILTER (WHERE embedding IS NOT NULL)::int AS embedded,
            avg(importance) FILTER (WHERE status = 'active')::float8 AS avg_importance,
            coalesce(sum(access_count), 0)::int AS access_total,
            min(created_at) AS oldest, max(created_at) AS newest,
            count(DISTINCT namespace)::int AS namespaces
       FROM memories ${where}`,
    ...params,
  );
  const types = await store.prisma.$queryRawUnsafe<{ type: string; n: number }[]>(
    `SELECT memory_type AS type, count(*)::int AS n FROM memories ${where ? `${where} AND` : 'WHERE'} status = 'active' GROUP BY memory_type ORDER BY memory_type`,
    ...params,
  );
  const [tags] = await store.prisma.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(DISTINCT t)::int AS n FROM memories, unnest(tags) AS t ${where ? `${where} AND` : 'WHERE'} status = 'active'`,
    ...params,
  );
  const row = s as StatsRow;
  return {
    namespace: ns ?? null,
    count: Number(row.active),
    total: Number(row.total),
    active: Number(row.active),
    deprecated: Number(row.deprecated),
    pinned: Number(row.pinned),
    by_type: Object.fromEntries(types.map((t) => [t.type, Number(t.n)])),
    tags: Number(tags?.n ?? 0),
    namespaces: Number(row.namespaces),
    embedded: Number(row.embedded),
    embedding_model: store.embedder.model,
    avg_importance: row.avg_importance === null ? null : Math.round(Number(row.avg_importance) * 1e4) / 1e4,
    access_total: Number(row.access_total),
    oldest: row.oldest ? new Date(row.oldest).toISOString() : null,
    newest: row.newest ? new Date(row.newest).toISOString() : null,
  };
}

export const statsRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  const config = {
    access: 'read' as const,
    description: 'memory statistics (count and others)',
    responseType: 'Stats',
  };
  app.get<{ Querystring: { namespace?: string } }>(
    '/stats',
    { schema: { querystring: namespaceQuery }, config: { ...config, requestType: 'query namespace' } },
    async (request) => stats(store, namespace(request.query.namespace)),
  );
  app.post<{ Body: { namespace?: unknown } | undefined }>(
    '/stats',
    { schema: { body: statsBody }, config: { ...config, requestType: '{namespace}' } },
    async (request) => stats(store, namespace(request.body?.namespace)),
  );
};

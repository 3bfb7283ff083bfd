import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { filterSql, type MemoryFilter } from '../../memories/filters.ts';
import { toMemoryJson } from '../../memories/record.ts';
import { limit, namespace, optionalString, tagList, timestamp } from '../../schemas/parse.ts';
import { listBody, recentQuery, searchBody } from '../../schemas/requests.ts';

export const LIST_LIMIT = { default: 50, max: 1000 };
const SEARCH_LIMIT = { default: 10, max: 100 };
const RECENT_LIMIT = { default: 10, max: 100 };

export const searchRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  const ordered = async (filter: MemoryFilter, take: number, skip = 0) => {
    const params: unknown[] = [];
    const where = filterSql(filter, params);
    params.push(take, skip);
    const ids = await store.prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT m.id::text AS id FROM memories m WHERE ${where}
        ORDER BY m.created_at DESC, m.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      ...params,
    );
    const rows = await store.getMany(ids.map((r) => r.id));
    return ids.flatMap((r) => {
      const row = rows.get(r.id);
      return row ? [toMemoryJson(row)] : [];
    });
  };

  const count = async (filter: MemoryFilter) => {
    const params: unknown[] = [];
    const where = filterSql(filter, params);
    const [row] = await store.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM memories m WHERE ${where}`,
      ...params,
    );
    return Number(row?.n ?? 0);
  };

  app.post<{ Body: Record<string, unknown> & { query: string; limit?: number; tags?: string[] } }>(
    '/search',
    {
      schema: { body: searchBody },
      config: {
        access: 'read',
        description: 'keyword search over content and tags (all words must match)',
        requestType: 'SearchRequest',
        responseType: 'SearchResult[]',
      },
    },
    async (request) => {
      const body = request.body;
      const take = limit(body.limit, SEARCH_LIMIT.default, SEARCH_LIMIT.max);
      const params: unknown[] = [body.query];
      const where = filterSql({ namespace: namespace(body.namespace), tags: tagList(body.tags) }, params);
      params.push(take);
      const hits = await store.prisma.$queryRawUnsafe<{ id: string; rank: number }[]>(
        `SELECT m.id::text AS id, ts_rank_cd(m.search_vector, q, 1)::float8 AS rank
           FROM memories m, websearch_to_tsquery('english', $1) q
          WHERE m.search_vector @@ q AND ${where}
          ORDER BY rank DESC, m.created_at DESC LIMIT $${params.length}`,
        ...params,
      );
      const rows = await store.getMany(hits.map((h) => h.id));
      const results = hits.flatMap((h) => {
        const row = rows.get(h.id);
        return row ? [{ ...toMemoryJson(row), score: Math.round(Number(h.rank) * 1e6) / 1e6 }] : [];
      });
      await store.countAccess(results.map((r) => r.id));
      return results;
    },
  );

  app.post<{
    Body: Record<string, unknown> & { include_meta?: boolean; limit?: number; offset?: number; tag?: string };
  }>(
    '/list',
    {
      schema: { body: listBody },
      config: {
        access: 'read',
        description: 'memories newest first, with filters; an envelope with include_meta',
        requestType: 'ListParams',
        responseType: 'Memory[] | ListEnvelope',
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const take = limit(body.limit, LIST_LIMIT.default, LIST_LIMIT.max);
      const skip = body.offset ?? 0;
      const tag = optionalString(body.tag, 'tag', 100);
      const filter: MemoryFilter = {
        namespace: namespace(body.namespace),
        tags: tag ? [tag] : undefined,
        at: timestamp(body.at, 'at'),
      };
      const memories = await ordered(filter, take, skip);
      // The spec keeps time travel on the bare array, even when include_meta asks for the envelope.
      if (body.include_meta !== true || filter.at) return memories;
      const total = await count(filter);
      const hasMore = skip + memories.length < total;
      return { memories, total, has_more: hasMore, next_offset: hasMore ? skip + memories.length : null };
    },
  );

  app.get<{ Querystring: { limit?: number; namespace?: string } }>(
    '/recent',
    {
      schema: { querystring: recentQuery },
      config: {
        access: 'read',
        description: 'most recently added memories',
        requestType: 'query limit, namespace',
        responseType: 'Memory[]',
      },
    },
    async (request) => {
      const take = limit(request.query.limit, RECENT_LIMIT.default, RECENT_LIMIT.max);
      return ordered({ namespace: namespace(request.query.namespace) }, take);
    },
  );
};

import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { namespace } from '../../schemas/parse.ts';
import { namespaceQuery, tagDeleteBody, tagRenameBody } from '../../schemas/requests.ts';

/** Tags live on memories; renames and deletes rewrite the arrays in one statement each. */
export const tagRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  const scope = (ns: string | undefined, params: unknown[]) => {
    if (ns === undefined) return '';
    params.push(ns);
    return ` AND namespace = $${params.length}`;
  };

  app.get<{ Querystring: { namespace?: string } }>(
    '/tags',
    {
      schema: { querystring: namespaceQuery },
      config: {
        access: 'read',
        description: 'tags of live memories with counts, most used first',
        requestType: 'query namespace',
        responseType: 'TagCount[]',
      },
    },
    async (request) => {
      const params: unknown[] = [];
      const where = scope(namespace(request.query.namespace), params);
      const rows = await store.prisma.$queryRawUnsafe<{ tag: string; count: number }[]>(
        `SELECT t AS tag, count(*)::int AS count FROM memories, unnest(tags) AS t
          WHERE status = 'active'${where} GROUP BY t ORDER BY count(*) DESC, t`,
        ...params,
      );
      return rows.map((r) => ({ tag: r.tag, count: Number(r.count) }));
    },
  );

  app.post<{ Body: { old: string; new: string; namespace?: unknown } }>(
    '/tags/rename',
    {
      schema: { body: tagRenameBody },
      config: {
        access: 'write',
        description: 'renames a tag on every memory (of one namespace if given)',
        requestType: 'TagRenameRequest',
        responseType: 'TagRenameResult',
      },
    },
    async (request) => {
      const { old } = request.body;
      const renamed = request.body.new.trim();
      const ns = namespace(request.body.namespace);
      const params: unknown[] = [old, renamed];
      // A memory that already has the new tag just loses the old one, so tags stay unique.
      const rows = await store.prisma.$queryRawUnsafe<{ id: string }[]>(
        `UPDATE memories SET tags = CASE WHEN $2 = ANY(tags) THEN array_remove(tags, $1) ELSE array_replace(tags, $1, $2) END,
                updated_at = now()
          WHERE $1 = ANY(tags)${scope(ns, params)} RETURNING id::text AS id`,
        ...params,
      );
      await store.refreshCatalog({ id: { in: rows.map((r) => r.id) } });
      return { old, new: renamed, namespace: ns ?? null, updated: rows.length };
    },
  );

  app.post<{ Body: { tag: string; namespace?: unknown } }>(
    '/tags/delete',
    {
      schema: { body: tagDeleteBody },
      config: {
        access: 'write',
        description: 'removes a tag from every memory (of one namespace if given)',
        requestType: 'TagDeleteRequest',
        responseType: 'TagDeleteResult',
      },
    },
    async (request) => {
      const { tag } = request.body;
      const ns = namespace(request.body.namespace);
      const params: unknown[] = [tag];
      const rows = await store.prisma.$queryRawUnsafe<{ id: string }[]>(
        `UPDATE memories SET tags = array_remove(tags, $1), updated_at = now()
          WHERE $1 = ANY(tags)${scope(ns, params)} RETURNING id::text AS id`,
        ...params,
      );
      await store.refreshCatalog({ id: { in: rows.map((r) => r.id) } });
      return { tag, namespace: ns ?? null, updated: rows.length };
    },
  );
};

import { badRequest, conflict, notFound } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import type { MemoryStore } from '../../memories/memory-store.ts';
import { namespaceDeleteBody, namespaceRenameBody, namespacesQuery } from '../../schemas/requests.ts';

/** Moves every memory of `from` to `to` (no re-embedding), with a timeline event on each. */
async function moveNamespace(store: MemoryStore, from: string, to: string): Promise<number> {
  const moved = await store.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(
      `INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
       SELECT id, 'namespace_moved', 'api', jsonb_build_object('from', $1::text, 'to', $2::text), now()
         FROM memories WHERE namespace = $1`,
      from,
      to,
    );
    return tx.$executeRawUnsafe(
      `UPDATE memories SET namespace = $2, updated_at = now() WHERE namespace = $1`,
      from,
      to,
    );
  });
  await store.refreshCatalog({ namespace: to });
  return moved;
}

const exists = async (store: MemoryStore, name: string) =>
  (await store.prisma.memory.count({ where: { namespace: name } })) > 0;

export const namespaceRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  app.get<{ Querystring: { with_counts?: boolean } }>(
    '/namespaces',
    {
      schema: { querystring: namespacesQuery },
      config: {
        access: 'read',
        description: 'namespaces in use; counts with with_counts=true',
        requestType: 'query with_counts',
        responseType: '{namespaces}',
      },
    },
    async (request) => {
      const rows = await store.prisma.$queryRawUnsafe<
        { name: string; count: number; active: number; deprecated: number }[]
      >(
        `SELECT namespace AS name, count(*)::int AS count,
                count(*) FILTER (WHERE status = 'active')::int AS active,
                count(*) FILTER (WHERE status = 'deprecated')::int AS deprecated
           FROM memories GROUP BY namespace ORDER BY namespace`,
      );
      const withCounts = request.query.with_counts === true;
      return {
        namespaces: rows.map((r) =>
          withCounts
            ? { name: r.name, count: Number(r.count), active: Number(r.active), deprecated: Number(r.deprecated) }
            : { name: r.name },
        ),
      };
    },
  );

  app.post<{ Body: { from: string; to: string } }>(
    '/namespaces/rename',
    {
      schema: { body: namespaceRenameBody },
      config: {
        access: 'write',
        description: 'renames a namespace; merges into `to` when it exists',
        requestType: 'NamespaceRenameRequest',
        responseType: '{from, to, moved, target_existed}',
      },
    },
    async (request) => {
      const from = request.body.from;
      const to = request.body.to.trim();
      if (from === to) throw badRequest('from and to are the same namespace');
      if (!(await exists(store, from))) throw notFound(`no namespace named ${JSON.stringify(from)}`);
      const targetExisted = await exists(store, to);
      const moved = await moveNamespace(store, from, to);
      return { from, to, moved, target_existed: targetExisted };
    },
  );

  app.post<{ Body: { name: string; strategy?: 'refuse' | 'merge' | 'deprecate'; target?: string } }>(
    '/namespaces/delete',
    {
      schema: { body: namespaceDeleteBody },
      config: {
        access: 'write',
        description: 'refuse (409 while used), merge into target, or deprecate its memories',
        requestType: 'NamespaceDeleteRequest',
        responseType: 'NamespaceDeleteResult',
      },
    },
    async (request) => {
      const { name } = request.body;
      const strategy = request.body.strategy ?? 'refuse';
      if (!(await exists(store, name))) throw notFound(`no namespace named ${JSON.stringify(name)}`);
      if (strategy === 'refuse') {
        const n = await store.prisma.memory.count({ where: { namespace: name } });
        throw conflict(
          `namespace ${JSON.stringify(name)} is referenced by ${n} memories; use strategy merge or deprecate`,
        );
      }
      if (strategy === 'merge') {
        const target = request.body.target?.trim();
        if (!target) throw badRequest('strategy merge needs a target namespace');
        if (target === name) throw badRequest('target must differ from name');
        const moved = await moveNamespace(store, name, target);
        return { name, strategy, target, moved };
      }
      const deprecated = await store.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(
          `INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
           SELECT id, 'deprecated', 'api', '{"reason":"namespace_delete"}'::jsonb, now()
             FROM memories WHERE namespace = $1 AND status = 'active'`,
          name,
        );
        return tx.$executeRawUnsafe(
          `UPDATE memories SET status = 'deprecated', deprecated_at = now(), updated_at = now() WHERE namespace = $1 AND status = 'active'`,
          name,
        );
      });
      await store.refreshCatalog({ namespace: name });
      return { name, strategy, deprecated };
    },
  );
};

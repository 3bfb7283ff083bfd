import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import type { MemoryContext } from '../../context.ts';
import { deleteNamespace, listNamespaces, moveNamespace } from '../../memories/namespaces.ts';
import { namespaceDeleteBody, namespaceRenameBody, namespacesQuery } from '../../schemas/requests.ts';

export const namespaceRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  app.get<{ Querystring: Static<typeof namespacesQuery> }>(
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
      const rows = await listNamespaces(store);
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

  app.post<{ Body: Static<typeof namespaceRenameBody> }>(
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
      const { from } = request.body;
      const to = request.body.to.trim();
      const { moved, targetExisted } = await moveNamespace(store, from, to);
      return { from, to, moved, target_existed: targetExisted };
    },
  );

  app.post<{ Body: Static<typeof namespaceDeleteBody> }>(
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
    async (request) =>
      deleteNamespace(store, request.body.name, request.body.strategy ?? 'refuse', request.body.target?.trim()),
  );
};

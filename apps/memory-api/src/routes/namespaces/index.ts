import { deleteNamespace, listNamespaces, moveNamespace } from '../../memories/namespaces.ts';
import { namespaceDeleteBody, namespaceRenameBody, namespacesQuery } from '../../schemas/requests.ts';
import { type RoutePlugin, read, write } from '../define.ts';

export const namespaceRoutes: RoutePlugin = async (app, { store }) => {
  app.get(
    '/namespaces',
    {
      schema: { querystring: namespacesQuery },
      config: read('namespaces in use; counts with with_counts=true', 'query with_counts', '{namespaces}'),
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

  app.post(
    '/namespaces/rename',
    {
      schema: { body: namespaceRenameBody },
      config: write(
        'renames a namespace; merges into `to` when it exists',
        'NamespaceRenameRequest',
        '{from, to, moved, target_existed}',
      ),
    },
    async (request) => {
      const { from } = request.body;
      const to = request.body.to.trim();
      const { moved, targetExisted } = await moveNamespace(store, from, to);
      return { from, to, moved, target_existed: targetExisted };
    },
  );

  app.post(
    '/namespaces/delete',
    {
      schema: { body: namespaceDeleteBody },
      config: write(
        'refuse (409 while used), merge into target, or deprecate its memories',
        'NamespaceDeleteRequest',
        'NamespaceDeleteResult',
      ),
    },
    async (request) =>
      deleteNamespace(store, request.body.name, request.body.strategy ?? 'refuse', request.body.target?.trim()),
  );
};

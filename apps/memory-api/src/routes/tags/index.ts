import { listTags, rewriteTag } from '../../memories/stats.ts';
import { namespace } from '../../schemas/parse.ts';
import { namespaceQuery, tagDeleteBody, tagRenameBody } from '../../schemas/requests.ts';
import { type RoutePlugin, read, write } from '../define.ts';

/** Tags live on memories; renames and deletes rewrite the arrays in one statement each. */
export const tagRoutes: RoutePlugin = async (app, { store }) => {
  app.get(
    '/tags',
    {
      schema: { querystring: namespaceQuery },
      config: read('tags of live memories with counts, most used first', 'query namespace', 'TagCount[]'),
    },
    async (request) => listTags(store, namespace(request.query.namespace)),
  );

  app.post(
    '/tags/rename',
    {
      schema: { body: tagRenameBody },
      config: write('renames a tag on every memory (of one namespace if given)', 'TagRenameRequest', 'TagRenameResult'),
    },
    async (request) => {
      const { old } = request.body;
      const renamed = request.body.new.trim();
      const ns = namespace(request.body.namespace);
      return { old, new: renamed, namespace: ns ?? null, updated: await rewriteTag(store, old, renamed, ns) };
    },
  );

  app.post(
    '/tags/delete',
    {
      schema: { body: tagDeleteBody },
      config: write(
        'removes a tag from every memory (of one namespace if given)',
        'TagDeleteRequest',
        'TagDeleteResult',
      ),
    },
    async (request) => {
      const { tag } = request.body;
      const ns = namespace(request.body.namespace);
      return { tag, namespace: ns ?? null, updated: await rewriteTag(store, tag, undefined, ns) };
    },
  );
};

import { countMemories, keywordSearch, newestMemories } from '../../memories/listing.ts';
import { namespace, optionalString, tagList, timestamp } from '../../schemas/parse.ts';
import { listBody, recentQuery, searchBody } from '../../schemas/requests.ts';
import { type RoutePlugin, read } from '../define.ts';

export const LIST_LIMIT = 50;
const SEARCH_LIMIT = 10;
const RECENT_LIMIT = 10;

export const searchRoutes: RoutePlugin = async (app, { store }) => {
  app.post(
    '/search',
    {
      schema: { body: searchBody },
      config: read('keyword search over content and tags (all words must match)', 'SearchRequest', 'SearchResult[]'),
    },
    async ({ body }) =>
      keywordSearch(
        store,
        body.query,
        { namespace: namespace(body.namespace), tags: tagList(body.tags) },
        body.limit ?? SEARCH_LIMIT,
      ),
  );

  app.post(
    '/list',
    {
      schema: { body: listBody },
      config: read(
        'memories newest first, with filters; an envelope with include_meta',
        'ListParams',
        'Memory[] | ListEnvelope',
      ),
    },
    async ({ body }) => {
      const take = body.limit ?? LIST_LIMIT;
      const skip = body.offset ?? 0;
      const tag = optionalString(body.tag, 'tag', 100);
      const filter = {
        namespace: namespace(body.namespace),
        tags: tag ? [tag] : undefined,
        at: timestamp(body.at, 'at'),
      };
      const memories = await newestMemories(store, filter, take, skip);
      // The spec keeps time travel on the bare array, even when include_meta asks for the envelope.
      if (body.include_meta !== true || filter.at) return memories;
      const total = await countMemories(store, filter);
      const hasMore = skip + memories.length < total;
      return { memories, total, has_more: hasMore, next_offset: hasMore ? skip + memories.length : null };
    },
  );

  app.get(
    '/recent',
    {
      schema: { querystring: recentQuery },
      config: read('most recently added memories', 'query limit, namespace', 'Memory[]'),
    },
    async ({ query }) => newestMemories(store, { namespace: namespace(query.namespace) }, query.limit ?? RECENT_LIMIT),
  );
};

import { badRequest } from '@trove/service-kit';
import { RECALL_STRATEGIES, type RecallStrategy } from '../../config.ts';
import { type DocumentRecallResult, enrichResults, recallDocuments } from '../../documents/recall-documents.ts';
import type { MemoryFilter } from '../../memories/filters.ts';
import { buildPack } from '../../recall/pack.ts';
import { minScoreFor, type RecallResult, recall } from '../../recall/recall.ts';
import { namespace, optionalString, timestamp } from '../../schemas/parse.ts';
import { recallBody } from '../../schemas/requests.ts';
import { type RoutePlugin, read } from '../define.ts';

export const RECALL_LIMIT = 10;
const DEFAULT_BUDGET_CHARS = 4000;

/** Reads a filter from a recall-like body; shared with /search and /list. */
export function filterFrom(body: Record<string, unknown>): MemoryFilter {
  const filter: MemoryFilter = {
    namespace: namespace(body.namespace),
    tags: body.tags as string[] | undefined,
    category: optionalString(body.category, 'category'),
    entity: optionalString(body.entity, 'entity'),
    after: timestamp(body.after, 'after'),
    before: timestamp(body.before, 'before'),
    at: timestamp(body.at, 'at'),
  };
  if (filter.after && filter.before && filter.after > filter.before)
    throw badRequest('after must not be later than before');
  return filter;
}

/** The strategy a request names, or the configured one; the message for a wrong one is part of the recall contract. */
export function strategyOf(name: string | undefined, fallback: RecallStrategy): RecallStrategy {
  if (name === undefined) return fallback;
  if (!RECALL_STRATEGIES.includes(name as RecallStrategy))
    throw badRequest(`unknown strategy ${JSON.stringify(name)}; valid strategies: ${RECALL_STRATEGIES.join(', ')}`);
  return name as RecallStrategy;
}

export const recallRoutes: RoutePlugin = async (app, { store, config }) => {
  app.post(
    '/recall',
    {
      schema: { body: recallBody },
      config: read(
        'ranked memories by meaning and keyword; a ContextPack with `pack`',
        'RecallRequest',
        'RecallResult[] | ContextPack',
      ),
    },
    async (request) => {
      const body = request.body;
      const strategy = strategyOf(body.strategy, config.DEFAULT_RECALL_STRATEGY);
      const searchType = body.search_type ?? 'all';
      const filter = filterFrom(body);
      const explain = body.explain === true;
      if (explain) {
        // explain ranks memories only, in the present: unified or document search and time travel have no such signals.
        if (body.search_type === 'all' || body.search_type === 'doc') {
          throw badRequest('explain works on memory results only: omit search_type or set it to "memory"');
        }
        for (const field of ['at', 'before', 'after'] as const) {
          if (body[field] !== undefined) throw badRequest(`explain cannot be combined with ${field}`);
        }
      }
      const minScore = minScoreFor(body.min_score, body.strict, body.pack === true);
      const max = body.limit ?? RECALL_LIMIT;
      const excludeIds = (body.exclude_ids ?? []).map((s) => s.toLowerCase());
      const budget = body.budget_chars ?? DEFAULT_BUDGET_CHARS;
      const pack = body.pack === true;
      // A pack reports excluded memories as skipped, so it ranks that many more.
      const take = pack ? max + excludeIds.length : max;
      const query = body.query.trim();
      if (!query) throw badRequest('query must not be empty');

      const memories =
        searchType === 'doc'
          ? []
          : await recall(store, {
              query,
              limit: take,
              strategy,
              filter,
              minScore,
              explain,
            });
      // Unified (`all`) and `doc` searches add documents, scored on the same 0..1 fused scale;
      // `explain` ranks memories only, so it keeps the answer to memories.
      const documents =
        searchType === 'memory' || explain
          ? []
          : await recallDocuments(store, {
              query,
              limit: take,
              filter,
              minScore,
              vectorFloor: config.VECTOR_MIN_SIMILARITY,
            });
      const results: (RecallResult | DocumentRecallResult)[] =
        documents.length === 0
          ? memories
          : [...memories, ...documents].sort((a, b) => b.score - a.score).slice(0, take);
      const shown = body.enrich === true ? await enrichResults(store, results) : results;
      const memoryIds = (items: { id: string; kind?: string }[]) =>
        items.filter((r) => r.kind !== 'document').map((r) => r.id);
      // Access counting is bookkeeping, not part of the answer: it is not awaited (the embedded
      // database runs statements in order, so a read that follows still sees it).
      const countAccess = (ids: string[]) =>
        store.countAccess(ids).catch((err) => request.log.warn({ err }, 'recall: access count not recorded'));
      if (pack) {
        const packed = buildPack(shown, budget, new Set(excludeIds));
        void countAccess(memoryIds(packed.selected));
        return packed;
      }
      void countAccess(memoryIds(shown));
      return shown;
    },
  );
};

import { badRequest } from '@trove/service-kit';
import { buildContextWindow } from '../../ai/context-window.ts';
import { dream } from '../../ai/dream.ts';
import { type Extraction, extractFacts, summarise } from '../../ai/extract.ts';
import { extractWithModel } from '../../ai/llm-extract.ts';
import { storeFacts } from '../../ai/store-facts.ts';
import { minScoreFor, recall } from '../../recall/recall.ts';
import { namespace, optionalString, tagList } from '../../schemas/parse.ts';
import { type RoutePlugin, read, write } from '../define.ts';
import { filterFrom, strategyOf } from '../recall/index.ts';
import { DEFAULT_NAMESPACE } from '../remember/index.ts';
import { contextBody, dreamBody, extractBody } from './schemas.ts';

export const CONTEXT_DEFAULTS = { budget: 4000, limit: 20 };
export const DREAM_DEFAULTS = { duplicateThreshold: 0.92, minMentions: 3 };

export const aiRoutes: RoutePlugin = async (app, { store, config }) => {
  app.post(
    '/extract',
    {
      schema: { body: extractBody },
      config: write(
        'extracts facts, entities and relationships; stores the facts as memories unless store is false',
        'ExtractRequest',
        'ExtractResult',
      ),
    },
    async (request, reply) => {
      const body = request.body;
      const content = body.content.trim();
      if (!content) throw badRequest('content must not be empty');
      const maxFacts = body.max_facts ?? config.EXTRACT_MAX_FACTS;
      const requestedModel = optionalString(body.model, 'model');
      if (requestedModel && !config.EXTRACT_LLM_URL)
        throw badRequest('model needs an extraction endpoint, and EXTRACT_LLM_URL is not set on this server');
      const type = (body.type ?? undefined) as string | undefined;
      const ns = namespace(body.namespace) ?? DEFAULT_NAMESPACE;
      const tags = tagList(body.tags) ?? [];
      const keep = body.store ?? true;

      const model = config.EXTRACT_LLM_URL ? (requestedModel ?? config.EXTRACT_LLM_MODEL) : undefined;
      const extraction: Extraction = model
        ? summarise(
            await extractWithModel(
              {
                baseUrl: config.EXTRACT_LLM_URL as string,
                model,
                apiKey: config.EXTRACT_LLM_API_KEY,
                timeoutMs: config.EXTRACT_LLM_TIMEOUT_MS,
              },
              content,
              maxFacts,
            ),
          )
        : extractFacts(content, maxFacts);
      const method = model ? 'model' : 'rules';
      const answer = { method, model: model ?? null, namespace: ns, ...extraction };
      if (!keep) return { ...answer, stored: 0, memories: [] };

      const saved = await storeFacts(store, { facts: extraction.facts, namespace: ns, tags, type, method, model });
      const stored = saved.memories.filter((m) => m.created).length;
      return reply
        .code(stored > 0 ? 201 : 200)
        .send({ ...answer, stored, memories: saved.memories, graph: saved.graph });
    },
  );

  app.post(
    '/context',
    {
      schema: { body: contextBody },
      config: read(
        'a context block for a prompt: the memories most relevant to a query, within a character budget',
        'ContextRequest',
        'ContextWindow',
      ),
    },
    async (request) => {
      const body = request.body;
      const query = body.query.trim();
      if (!query) throw badRequest('query must not be empty');
      const budget = body.budget_chars ?? CONTEXT_DEFAULTS.budget;
      const max = body.limit ?? CONTEXT_DEFAULTS.limit;
      const exclude = new Set((body.exclude_ids ?? []).map((s) => s.toLowerCase()));
      const ranked = await recall(store, {
        query,
        limit: max + exclude.size,
        strategy: strategyOf(body.strategy, config.DEFAULT_RECALL_STRATEGY),
        filter: filterFrom({ namespace: body.namespace, tags: body.tags }),
        minScore: minScoreFor(body.min_score, body.strict, true),
        explain: false,
      });
      const window = buildContextWindow(ranked, budget, exclude);
      store.countAccess(window.ids).catch((err) => request.log.warn({ err }, 'context: access count not recorded'));
      return { query, ...window };
    },
  );

  app.post(
    '/dream',
    {
      schema: { body: dreamBody },
      config: write(
        'derives insight memories from the corpus: duplicate clusters, contradiction candidates, recurring entities',
        'DreamRequest',
        'DreamResult',
      ),
    },
    async (request) => {
      const body = request.body;
      return dream(store, {
        namespace: namespace(body.namespace),
        dryRun: body.dry_run ?? false,
        duplicateThreshold: body.duplicate_threshold ?? DREAM_DEFAULTS.duplicateThreshold,
        contradictionThreshold: body.contradiction_threshold ?? config.CONTRADICTION_THRESHOLD,
        minMentions: body.min_mentions ?? DREAM_DEFAULTS.minMentions,
      });
    },
  );
};

import { badRequest } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import { buildContextWindow } from '../../ai/context-window.ts';
import { dream } from '../../ai/dream.ts';
import { type Extraction, extractFacts, summarise } from '../../ai/extract.ts';
import { extractWithModel } from '../../ai/llm-extract.ts';
import { storeFacts } from '../../ai/store-facts.ts';
import { RECALL_STRATEGIES, type RecallStrategy } from '../../config.ts';
import type { MemoryContext } from '../../context.ts';
import { minScoreFor, recall } from '../../recall/recall.ts';
import { bool, fraction, isUuid, limit, namespace, optionalString, tagList } from '../../schemas/parse.ts';
import { filterFrom } from '../recall/index.ts';
import { DEFAULT_NAMESPACE } from '../remember/index.ts';
import { contextBody, dreamBody, extractBody } from './schemas.ts';

export const MAX_FACTS_LIMIT = 200;
export const CONTEXT_DEFAULTS = { budget: 4000, maxBudget: 1_000_000, limit: 20, maxLimit: 100 };
export const DREAM_DEFAULTS = { duplicateThreshold: 0.92, minMentions: 3 };

type Body = Record<string, unknown>;

export const aiRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store, config }) => {
  app.post<{ Body: Body & { content: string } }>(
    '/extract',
    {
      schema: { body: extractBody },
      config: {
        access: 'write',
        description: 'extracts facts, entities and relationships; stores the facts as memories unless store is false',
        requestType: 'ExtractRequest',
        responseType: 'ExtractResult',
      },
    },
    async (request, reply) => {
      const body = request.body;
      const content = body.content.trim();
      if (!content) throw badRequest('content must not be empty');
      const maxFacts = limit(body.max_facts, config.EXTRACT_MAX_FACTS, MAX_FACTS_LIMIT, 'max_facts');
      const requestedModel = optionalString(body.model, 'model');
      if (requestedModel && !config.EXTRACT_LLM_URL)
        throw badRequest('model needs an extraction endpoint, and EXTRACT_LLM_URL is not set on this server');
      const type = (body.type ?? undefined) as string | undefined;
      const ns = namespace(body.namespace) ?? DEFAULT_NAMESPACE;
      const tags = tagList(body.tags) ?? [];
      const keep = bool(body.store, 'store') ?? true;

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

  app.post<{ Body: Body & { query: string } }>(
    '/context',
    {
      schema: { body: contextBody },
      config: {
        access: 'read',
        description: 'a context block for a prompt: the memories most relevant to a query, within a character budget',
        requestType: 'ContextRequest',
        responseType: 'ContextWindow',
      },
    },
    async (request) => {
      const body = request.body;
      const query = body.query.trim();
      if (!query) throw badRequest('query must not be empty');
      const strategy = (body.strategy ?? config.DEFAULT_RECALL_STRATEGY) as RecallStrategy;
      if (!RECALL_STRATEGIES.includes(strategy))
        throw badRequest(
          `unknown strategy ${JSON.stringify(body.strategy)}; valid strategies: ${RECALL_STRATEGIES.join(', ')}`,
        );
      const budget = limit(body.budget_chars, CONTEXT_DEFAULTS.budget, CONTEXT_DEFAULTS.maxBudget, 'budget_chars');
      const max = limit(body.limit, CONTEXT_DEFAULTS.limit, CONTEXT_DEFAULTS.maxLimit);
      if (body.exclude_ids !== undefined && (!Array.isArray(body.exclude_ids) || !body.exclude_ids.every(isUuid)))
        throw badRequest('exclude_ids must be an array of memory ids (UUIDs)');
      const exclude = new Set(((body.exclude_ids as string[] | undefined) ?? []).map((s) => s.toLowerCase()));
      const ranked = await recall(store, {
        query,
        limit: max + exclude.size,
        strategy,
        filter: filterFrom({ namespace: body.namespace, tags: body.tags }),
        minScore: minScoreFor(fraction(body.min_score, 'min_score'), body.strict as boolean | undefined, true),
        explain: false,
      });
      const window = buildContextWindow(ranked, budget, exclude);
      store.countAccess(window.ids).catch((err) => request.log.warn({ err }, 'context: access count not recorded'));
      return { query, ...window };
    },
  );

  app.post<{ Body: Body }>(
    '/dream',
    {
      schema: { body: dreamBody },
      config: {
        access: 'write',
        description:
          'derives insight memories from the corpus: duplicate clusters, contradiction candidates, recurring entities',
        requestType: 'DreamRequest',
        responseType: 'DreamResult',
      },
    },
    async (request) => {
      const body = request.body ?? {};
      return dream(store, {
        namespace: namespace(body.namespace),
        dryRun: bool(body.dry_run, 'dry_run') ?? false,
        duplicateThreshold:
          fraction(body.duplicate_threshold, 'duplicate_threshold') ?? DREAM_DEFAULTS.duplicateThreshold,
        contradictionThreshold:
          fraction(body.contradiction_threshold, 'contradiction_threshold') ?? config.CONTRADICTION_THRESHOLD,
        minMentions: limit(body.min_mentions, DREAM_DEFAULTS.minMentions, 10_000, 'min_mentions'),
      });
    },
  );
};

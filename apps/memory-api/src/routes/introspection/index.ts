import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { RECALL_STRATEGIES } from '../../config.ts';
import type { MemoryContext } from '../../context.ts';
import { MEMORY_TYPES } from '../../memories/memory-types.ts';
import { SERVICE, VERSION } from '../../meta.ts';

export interface RouteInfo {
  method: string;
  path: string;
  tier: string;
  description: string;
  request: string | null;
  response: string | null;
}

/**
 * Collects the app's routes as they are registered (Fastify's own list, so it cannot drift from
 * what is served). Must be called before the route plugins are registered.
 */
export function collectRoutes(app: FastifyInstance): RouteInfo[] {
  const routes: RouteInfo[] = [];
  app.addHook('onRoute', (route) => {
    const config = route.config;
    if (!config?.description) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        path: route.url,
        tier: config.access ?? 'public',
        description: config.description,
        request: config.requestType ?? null,
        response: config.responseType ?? null,
      });
    }
  });
  return routes;
}

function guide(defaultStrategy: string) {
  return {
    service: SERVICE,
    version: VERSION,
    prompt: [
      'You have a long-term memory service.',
      'Before answering, call POST /recall with the user question as `query` (add `namespace` to stay in one project).',
      'When you learn a durable fact, preference, decision or procedure, call POST /remember with short self-contained `content`, a `type` and a few `tags`.',
      'When something you remembered has changed, remember the new version with `detect_contradiction: true`: the old one is retired, not lost.',
      'Call DELETE /forget?id=... for memories that are wrong. Use `pack: true` with `budget_chars` to get context that fits your prompt.',
    ].join(' '),
    memory_types: MEMORY_TYPES,
    recall_strategies: RECALL_STRATEGIES,
    default_strategy: defaultStrategy,
    tools: [
      {
        name: 'remember',
        method: 'POST',
        path: '/remember',
        when: 'store a durable fact, preference, decision or procedure',
        example: { content: 'The user prefers dark mode in every editor.', type: 'preference', tags: ['ui'] },
      },
      {
        name: 'recall',
        method: 'POST',
        path: '/recall',
        when: 'find memories relevant to a question',
        example: { query: 'which theme does the user like?', limit: 5 },
      },
      {
        name: 'search',
        method: 'POST',
        path: '/search',
        when: 'exact keyword lookup',
        example: { query: 'dark mode' },
      },
      {
        name: 'list',
        method: 'POST',
        path: '/list',
        when: 'browse newest memories',
        example: { namespace: 'default', limit: 20 },
      },
      {
        name: 'update',
        method: 'PUT',
        path: '/memory',
        when: 'correct a memory in place',
        example: { id: '<uuid>', content: 'corrected text' },
      },
      { name: 'forget', method: 'DELETE', path: '/forget?id=<uuid>', when: 'retire a wrong memory (soft delete)' },
      {
        name: 'feedback',
        method: 'POST',
        path: '/memory/feedback',
        when: 'a recalled memory helped or misled you',
        example: { id: '<uuid>', feedback: 'helpful' },
      },
    ],
  };
}

export const introspectionRoutes: FastifyPluginAsync<MemoryContext & { routes: RouteInfo[] }> = async (
  app,
  { config, routes },
) => {
  app.get(
    '/routes',
    { config: { access: 'read', description: 'this route registry', responseType: 'RouteInfo[]' } },
    async () => [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method)),
  );
  app.get(
    '/guide',
    { config: { access: 'read', description: 'agent tool guide for system prompts', responseType: 'GuideResponse' } },
    async () => guide(config.DEFAULT_RECALL_STRATEGY),
  );
};

import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { buildGuide } from '../../ai/guide.ts';
import type { MemoryContext } from '../../context.ts';
import { noFields } from '../../schemas/requests.ts';
import { read } from '../define.ts';

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

export const introspectionRoutes: FastifyPluginAsync<MemoryContext & { routes: RouteInfo[] }> = async (
  app,
  { config, routes },
) => {
  app.get(
    '/routes',
    { schema: { querystring: noFields }, config: read('this route registry', undefined, 'RouteInfo[]') },
    async () => [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method)),
  );
  app.get(
    '/guide',
    {
      schema: { querystring: noFields },
      config: read('agent tool guide for system prompts', undefined, 'GuideResponse'),
    },
    async () => buildGuide(config.DEFAULT_RECALL_STRATEGY),
  );
};

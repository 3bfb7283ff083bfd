import type { FastifyInstance } from 'fastify';

/**
 * Which HTTP operations are MCP tools, and under which name. Nothing else is written here: a
 * tool's input schema is its route's (the same TypeBox object the route validates with and
 * OpenAPI shows), its description is the route's, and whether it only reads is the route's access
 * tier. Its arguments go to the route as the JSON body (the query string for GET and DELETE).
 */
const TOOL_ROUTES = {
  remember: 'POST /remember',
  recall: 'POST /recall',
  search: 'POST /search',
  list: 'POST /list',
  recent: 'GET /recent',
  get_memory: 'GET /memory',
  update_memory: 'PUT /memory',
  forget: 'DELETE /forget',
  pin: 'POST /memory/pin',
  feedback: 'POST /memory/feedback',
  timeline: 'GET /timeline',
  provenance: 'GET /provenance',
  edges: 'GET /edges',
  tags: 'GET /tags',
  namespaces: 'GET /namespaces',
  stats: 'POST /stats',
  context: 'POST /context',
  extract: 'POST /extract',
  dream: 'POST /dream',
  room_create: 'POST /room/create',
  room_remember: 'POST /room/remember',
  room_recall: 'POST /room/recall',
  room_list: 'GET /room/list',
  room_memories: 'GET /room/memories',
  doc_create: 'POST /doc/create',
  doc_get: 'POST /doc/get',
  doc_search: 'POST /doc/search',
  doc_list: 'POST /doc/list',
  graph: 'GET /graph',
  graph_edge: 'POST /graph/edge',
  contradictions: 'GET /contradictions',
} as const;

export const TOOL_NAMES = Object.keys(TOOL_ROUTES) as (keyof typeof TOOL_ROUTES)[];

export interface ToolSpec {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  description: string;
  /** The route's request schema (body, or query string for GET and DELETE). */
  inputSchema: { type: 'object'; [key: string]: unknown };
  /** Changes nothing (read-only tokens may call it). */
  readOnly: boolean;
}

const NO_INPUT = { type: 'object', properties: {}, additionalProperties: false } as const;

/** Collects the tools from the routes as they are registered; call before the route plugins. */
export function collectTools(app: FastifyInstance): ToolSpec[] {
  const byRoute = new Map<string, string>(Object.entries(TOOL_ROUTES).map(([name, route]) => [route, name]));
  const tools: ToolSpec[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const name = byRoute.get(`${method} ${route.url}`);
      if (!name) continue;
      const schema = (route.schema ?? {}) as { body?: ToolSpec['inputSchema']; querystring?: ToolSpec['inputSchema'] };
      tools.push({
        name,
        method: method as ToolSpec['method'],
        path: route.url,
        description: route.config?.description ?? name,
        inputSchema: (method === 'GET' || method === 'DELETE' ? schema.querystring : schema.body) ?? NO_INPUT,
        readOnly: route.config?.access === 'read',
      });
    }
  });
  // Listed in the table's order, whatever order the routes were registered in.
  app.addHook('onReady', async () => {
    tools.sort((a, b) => TOOL_NAMES.indexOf(a.name as never) - TOOL_NAMES.indexOf(b.name as never));
  });
  return tools;
}

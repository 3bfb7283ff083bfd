import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { SERVICE, VERSION } from '../meta.ts';
import type { ToolSpec } from './tools.ts';

/** A query string from tool arguments (GET and DELETE routes read theirs from the URL). */
function queryString(args: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    params.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/**
 * Runs a tool as the HTTP request it mirrors, in process, with the caller's Authorization
 * header: validation (with the route's own schema and Ajv options), read-only tokens and every
 * other rule are exactly those of the route, and its `{error}` is the tool error's text.
 */
export async function callRoute(
  app: FastifyInstance,
  tool: ToolSpec,
  args: Record<string, unknown>,
  authorization: string | undefined,
): Promise<CallToolResult> {
  const inUrl = tool.method === 'GET' || tool.method === 'DELETE';
  const res = await app.inject({
    method: tool.method,
    url: tool.path + (inUrl ? queryString(args) : ''),
    ...(inUrl ? {} : { payload: args as Record<string, unknown> }),
    headers: authorization ? { authorization } : {},
  });
  let body: unknown = res.body;
  try {
    body = res.json();
  } catch {
    // not JSON: passed on as text
  }
  if (res.statusCode >= 400) {
    const error = (body as { error?: unknown } | null)?.error;
    return {
      isError: true,
      content: [{ type: 'text', text: typeof error === 'string' ? error : `HTTP ${res.statusCode}: ${res.body}` }],
    };
  }
  return { content: [{ type: 'text', text: typeof body === 'string' ? body : JSON.stringify(body) }] };
}

/**
 * A fresh MCP server for one request (stateless mode), whose tools act with the caller's
 * credentials. The SDK's low-level server: its `registerTool` takes zod only, and the tools'
 * schemas are the routes' JSON Schemas, listed as they are.
 */
export function buildMcpServer(app: FastifyInstance, tools: ToolSpec[], authorization: string | undefined): Server {
  const server = new Server({ name: SERVICE, version: VERSION }, { capabilities: { tools: {} } });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: `${tool.description} (${tool.method} ${tool.path})`,
      inputSchema: tool.inputSchema,
      annotations: { readOnlyHint: tool.readOnly, destructiveHint: tool.name === 'forget', openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) return { isError: true, content: [{ type: 'text', text: `no tool named ${request.params.name}` }] };
    return callRoute(app, tool, request.params.arguments ?? {}, authorization);
  });
  return server;
}

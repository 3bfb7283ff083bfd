import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SERVICE, VERSION } from '../meta.ts';
import { TOOLS, type ToolSpec } from './tools.ts';

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
 * header: validation, read-only tokens and every other rule are exactly those of the route.
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

/** A fresh MCP server for one request (stateless mode), whose tools act with the caller's credentials. */
export function buildMcpServer(app: FastifyInstance, authorization: string | undefined): McpServer {
  const server = new McpServer({ name: SERVICE, version: VERSION }, { capabilities: { tools: {} } });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        description: `${tool.description} (${tool.method} ${tool.path})`,
        // Extra fields pass through to the route, which accepts or rejects them as over HTTP.
        inputSchema: z.object(tool.input).passthrough(),
        annotations: {
          readOnlyHint: tool.readOnly,
          destructiveHint: tool.name === 'forget',
          openWorldHint: false,
        },
      },
      (args: Record<string, unknown>) => callRoute(app, tool, args, authorization),
    );
  }
  return server;
}

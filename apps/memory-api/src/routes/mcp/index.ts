import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { errorBody } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { buildMcpServer } from '../../mcp/server.ts';
import type { ToolSpec } from '../../mcp/tools.ts';

const STATELESS =
  'this MCP endpoint is stateless (no sessions, no server-initiated stream): send JSON-RPC with POST /mcp';

/**
 * The Model Context Protocol over Streamable HTTP, in stateless mode: every POST gets its own
 * server and transport, so nothing is kept between requests and any instance can answer. The
 * route needs any valid token; what a tool may do is decided by the route it calls (tools run
 * as in-process HTTP requests carrying the caller's Authorization header).
 */
export const mcpRoutes: FastifyPluginAsync<MemoryContext & { tools: ToolSpec[] }> = async (app, { tools }) => {
  app.post(
    '/mcp',
    {
      config: {
        access: 'read',
        description: 'Model Context Protocol (Streamable HTTP, stateless): the memory operations as MCP tools',
        requestType: 'JSON-RPC request or batch',
        responseType: 'JSON-RPC response',
      },
    },
    async (request, reply) => {
      const server = buildMcpServer(app, tools, request.headers.authorization);
      // JSON answers rather than an SSE stream: a stateless tool call has one answer to give.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (err) {
        request.log.error({ err }, 'mcp: request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(JSON.stringify(errorBody('internal server error')));
        }
      }
    },
  );

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: {
        access: 'read',
        description: `${method} is not used by this stateless MCP endpoint (405)`,
        responseType: 'ErrorResponse',
      },
      handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send(errorBody(STATELESS)),
    });
  }
};

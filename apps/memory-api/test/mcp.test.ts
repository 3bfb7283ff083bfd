import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDE_TOOLS } from '../src/ai/guide.ts';
import { TOOL_NAMES } from '../src/mcp/tools.ts';
import { FULL_TOKEN as FULL, openTestApp, READ_TOKEN as READ, type TestApp } from './helpers.ts';

/** A test app listening on a real loopback port, as an MCP client would reach it. */
async function listening(env: Record<string, string> = {}): Promise<{ t: TestApp; url: URL }> {
  const t = await openTestApp({ env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, url: new URL(`http://127.0.0.1:${port}/mcp`) };
}

const clients: Client[] = [];
async function connect(url: URL, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  const client = new Client({ name: 'memory-api-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
}
async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = answer.content[0]?.text ?? '';
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: tool answers are free-form JSON that tests index into
  return { isError: answer.isError === true, text, json: json as any };
}

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
});

describe('MCP over Streamable HTTP (no authentication)', () => {
  let t: TestApp;
  let client: Client;
  beforeAll(async () => {
    const s = await listening();
    t = s.t;
    client = await connect(s.url);
  });
  afterAll(() => t.close());

  it('lists one tool per HTTP operation, with input schemas and read-only hints', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name);
    expect(names).toEqual(TOOL_NAMES);
    for (const name of ['remember', 'recall', 'search', 'forget', 'list', 'get_memory', 'context', 'extract', 'dream'])
      expect(names).toContain(name);
    const remember = tools.find((x) => x.name === 'remember');
    expect(remember?.inputSchema.required).toEqual(['content']);
    expect(remember?.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((x) => x.name === 'recall')?.annotations?.readOnlyHint).toBe(true);
    expect(remember?.description).toContain('(POST /remember)');
    // The route's own schema: strict, typed, with the fields /remember takes.
    expect(remember?.inputSchema.additionalProperties).toBe(false);
    expect(remember?.inputSchema.properties?.importance).toMatchObject({ type: 'number' });
  });

  it('every MCP tool and every /guide entry names a route the server serves, with the same access tier', async () => {
    const routes = (await t.call('GET', '/routes')).body as { method: string; path: string; tier: string }[];
    const tierOf = (method: string, path: string) =>
      routes.find((r) => r.method === method && r.path === path.split('?')[0])?.tier;
    for (const x of (await client.listTools()).tools) {
      const [method, path] = (/\((\w+) (\S+)\)$/.exec(x.description ?? '') ?? []).slice(1) as [string, string];
      expect(tierOf(method, path), x.name).toBe(x.annotations?.readOnlyHint ? 'read' : 'write');
    }
    for (const x of GUIDE_TOOLS) expect(tierOf(x.method, x.path), `${x.name}`).toBe(x.writes ? 'write' : 'read');
    const guide = (await t.call('GET', '/guide')).body;
    expect(guide.prompt).toContain('POST /context');
    expect(guide.mcp).toEqual({ path: '/mcp', transport: 'streamable-http', stateless: true });
  });

  it('remembers, recalls, forgets, and recall no longer finds it', async () => {
    const stored = await callTool(client, 'remember', {
      content: 'The release train leaves every second Tuesday',
      tags: ['process'],
      namespace: 'mcp',
    });
    expect(stored.isError).toBe(false);
    expect(stored.json).toMatchObject({ content: 'The release train leaves every second Tuesday', namespace: 'mcp' });
    const id = stored.json.id as string;
    // It is a real memory, visible over plain HTTP.
    expect((await t.call('GET', `/memory?id=${id}`)).body.tags).toEqual(['process']);

    const found = await callTool(client, 'recall', { query: 'when does the release train leave', namespace: 'mcp' });
    expect(found.json.map((r: { id: string }) => r.id)).toEqual([id]);
    const got = await callTool(client, 'get_memory', { id });
    expect(got.json.status).toBe('active');

    const forgotten = await callTool(client, 'forget', { id });
    expect(forgotten.json).toMatchObject({ ok: true, id, status: 'deprecated' });
    const after = await callTool(client, 'recall', { query: 'when does the release train leave', namespace: 'mcp' });
    expect(after.json).toEqual([]);
    const search = await callTool(client, 'search', { query: 'release train', namespace: 'mcp' });
    expect(search.json).toEqual([]);
  });

  it('reaches rooms, documents and the graph through the same tools', async () => {
    expect((await callTool(client, 'room_create', { name: 'mcp-room' })).isError).toBe(false);
    const inRoom = await callTool(client, 'room_remember', { room_id: 'mcp-room', content: 'Standup moved to 9:30' });
    expect(inRoom.isError).toBe(false);
    const roomRecall = await callTool(client, 'room_recall', { room_id: 'mcp-room', query: 'standup' });
    expect(JSON.stringify(roomRecall.json)).toContain(inRoom.json.id);

    const doc = await callTool(client, 'doc_create', {
      slug: 'mcp-runbook',
      content: 'Restart the queue, then drain it.',
    });
    expect(doc.isError).toBe(false);
    expect((await callTool(client, 'doc_get', { slug: 'mcp-runbook' })).json).toMatchObject({ slug: 'mcp-runbook' });

    const other = await callTool(client, 'remember', { content: 'The queue lives on host q-1' });
    const linked = await callTool(client, 'graph_edge', {
      source: inRoom.json.id,
      target: other.json.id,
      edge_type: 'relates_to',
    });
    expect(linked.isError).toBe(false);
    const edges = await callTool(client, 'edges', { id: inRoom.json.id });
    expect(JSON.stringify(edges.json)).toContain(other.json.id);
  });

  it("returns the route's {error} message as a tool error", async () => {
    const badType = await callTool(client, 'remember', { content: 'x', type: 'rumour' });
    expect(badType.isError).toBe(true);
    expect(badType.text).toMatch(/^unknown memory type "rumour"; valid types: fact, /);
    const badId = await callTool(client, 'get_memory', { id: 'not-a-uuid' });
    expect(badId).toMatchObject({ isError: true, text: 'id must be a memory id (a UUID)' });
    const missing = await callTool(client, 'forget', { id: '00000000-0000-4000-8000-000000000000' });
    expect(missing).toMatchObject({ isError: true, text: 'no memory with id 00000000-0000-4000-8000-000000000000' });
  });

  it('answers GET and DELETE with 405 (stateless: no sessions, no server stream)', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/mcp' });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.json().error).toMatch(/stateless/);
    }
  });
});

describe('MCP with authentication on', () => {
  let t: TestApp;
  let url: URL;
  beforeAll(async () => {
    const s = await listening({ AUTH_TOKENS: FULL, READ_ONLY_TOKENS: READ });
    t = s.t;
    url = s.url;
  });
  afterAll(() => t.close());

  it('refuses a client without a token (401)', async () => {
    const refused = { code: 401, message: expect.stringMatching(/missing or invalid bearer token/) };
    await expect(connect(url)).rejects.toMatchObject(refused);
    await expect(connect(url, 'wrong-token-0123456789abcdef')).rejects.toMatchObject(refused);
  });

  it('lets a read-only token recall but not remember', async () => {
    const writer = await connect(url, FULL);
    const stored = await callTool(writer, 'remember', { content: 'The office wifi password rotates monthly' });
    expect(stored.isError).toBe(false);

    const reader = await connect(url, READ);
    const denied = await callTool(reader, 'remember', { content: 'Readers cannot write this' });
    expect(denied).toMatchObject({ isError: true, text: 'this token is read-only; writes need a full-access token' });
    const forget = await callTool(reader, 'forget', { id: stored.json.id });
    expect(forget.isError).toBe(true);
    expect((await t.call('GET', `/memory?id=${stored.json.id}`, undefined, READ)).body.status).toBe('active');

    const found = await callTool(reader, 'recall', { query: 'office wifi password' });
    expect(found.isError).toBe(false);
    expect(found.json.map((r: { id: string }) => r.id)).toEqual([stored.json.id]);
    expect((await t.call('GET', '/stats', undefined, READ)).body.total).toBe(1);
  });
});

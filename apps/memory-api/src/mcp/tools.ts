import { z } from 'zod';
import { OFFSET_MAX } from '../schemas/fields.ts';

/**
 * The MCP tools, one per HTTP operation. Each tool is a thin description of a route: its
 * arguments go to the route as the JSON body (or as the query string for GET and DELETE), so the
 * route's validation, authentication and behaviour apply unchanged. The argument schemas are
 * deliberately loose (extra fields pass through): the route is the one that judges them, and its
 * `{error}` message is what the agent sees.
 */
export interface ToolSpec {
  name: string;
  description: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  input: z.ZodRawShape;
  /** Changes nothing (read-only tokens may call it). */
  readOnly: boolean;
}

const id = z.string().describe('memory id (UUID)');
const ns = z.string().optional().describe('namespace; omitted means "default" for writes and all namespaces for reads');
const tags = z.array(z.string()).optional();
const limit = z.number().int().optional();
const text = (what: string) => z.string().describe(what);

const read = (name: string, method: ToolSpec['method'], path: string, description: string, input: z.ZodRawShape) =>
  ({ name, method, path, description, input, readOnly: true }) satisfies ToolSpec;
const write = (name: string, method: ToolSpec['method'], path: string, description: string, input: z.ZodRawShape) =>
  ({ name, method, path, description, input, readOnly: false }) satisfies ToolSpec;

export const TOOLS: ToolSpec[] = [
  write('remember', 'POST', '/remember', 'Store a durable fact, preference, decision or procedure as a memory.', {
    content: text('short, self-contained text'),
    type: z
      .string()
      .optional()
      .describe('fact, procedure, preference, decision, context, note, insight, reference, event'),
    tags,
    namespace: ns,
    metadata: z.record(z.string(), z.unknown()).optional(),
    detect_contradiction: z.boolean().optional().describe('retire the closest memory this one corrects'),
  }),
  read('recall', 'POST', '/recall', 'Find memories relevant to a question, best first (by meaning and keywords).', {
    query: text('the question or topic'),
    limit,
    namespace: ns,
    tags,
    strategy: z.string().optional().describe('fusion (default), vector, fts5, hybrid, graph'),
    min_score: z.number().optional(),
    pack: z.boolean().optional().describe('return a ContextPack that fits budget_chars'),
    budget_chars: z.number().int().optional(),
  }),
  read('search', 'POST', '/search', 'Keyword search over memory content and tags.', {
    query: text('words that must all match'),
    limit,
    namespace: ns,
    tags,
  }),
  read('list', 'POST', '/list', 'List memories, newest first.', {
    namespace: ns,
    tag: z.string().optional(),
    limit,
    offset: z.number().int().min(0).max(OFFSET_MAX).optional(),
  }),
  read('recent', 'GET', '/recent', 'The most recently stored memories.', { namespace: ns, limit }),
  read('get_memory', 'GET', '/memory', 'One memory by id (deprecated ones too).', { id }),
  write('update_memory', 'PUT', '/memory', 'Correct a memory in place; given fields replace the stored ones.', {
    id,
    content: z.string().optional(),
    memory_type: z.string().optional(),
    tags,
    metadata: z.record(z.string(), z.unknown()).optional(),
    importance: z.number().optional(),
    namespace: z.string().optional(),
    pinned: z.boolean().optional(),
  }),
  write('forget', 'DELETE', '/forget', 'Retire a wrong or obsolete memory (soft delete; it can be restored).', { id }),
  write('pin', 'POST', '/memory/pin', 'Pin or unpin a memory (pinned memories are never aged out).', {
    id,
    pinned: z.boolean(),
  }),
  write('feedback', 'POST', '/memory/feedback', 'Say whether a recalled memory helped.', {
    id,
    feedback: z.enum(['helpful', 'unhelpful']),
  }),
  read('timeline', 'GET', '/timeline', 'The event timeline of a memory.', { id }),
  read('provenance', 'GET', '/provenance', 'Who wrote a memory, from where, and whether its content was altered.', {
    id,
  }),
  read('edges', 'GET', '/edges', 'All edges of a memory, outgoing and incoming, with backlinks.', { id }),
  read('tags', 'GET', '/tags', 'Tags in use, most used first.', { namespace: ns }),
  read('namespaces', 'GET', '/namespaces', 'Namespaces in use.', { with_counts: z.boolean().optional() }),
  read('stats', 'POST', '/stats', 'Memory statistics.', { namespace: ns }),
  read('context', 'POST', '/context', 'A ready-to-paste block of the memories most relevant to a query.', {
    query: text('the question or task'),
    namespace: ns,
    budget_chars: z.number().int().optional().describe('maximum length of the block (default 4000)'),
    limit,
  }),
  write('extract', 'POST', '/extract', 'Split text into facts with entities and relationships, and store them.', {
    content: text('the text to mine'),
    namespace: ns,
    tags,
    type: z.string().optional(),
    max_facts: z.number().int().optional(),
    store: z.boolean().optional().describe('false: only show what would be extracted'),
  }),
  write(
    'dream',
    'POST',
    '/dream',
    'Derive insights: duplicate clusters, possible contradictions, recurring entities.',
    {
      namespace: ns,
      dry_run: z.boolean().optional(),
    },
  ),
  write('room_create', 'POST', '/room/create', 'Create a room (a shared space for memories and documents).', {
    name: text('room id'),
  }),
  write('room_remember', 'POST', '/room/remember', 'Store a memory linked to a room.', {
    room_id: text('room id'),
    content: text('the memory'),
    author: z.string().optional(),
    namespace: ns,
    tags,
    type: z.string().optional(),
  }),
  read('room_recall', 'POST', '/room/recall', "Search a room's memories (chronological without a query).", {
    room_id: text('room id'),
    query: z.string().optional(),
    author: z.string().optional(),
    limit,
  }),
  read('room_list', 'GET', '/room/list', 'All rooms.', {}),
  read('room_memories', 'GET', '/room/memories', "A room's memories in order.", {
    room_id: text('room id'),
    author: z.string().optional(),
    namespace: ns,
  }),
  write('doc_create', 'POST', '/doc/create', 'Create a reference document addressed by slug.', {
    slug: text('unique name'),
    content: text('the document'),
    title: z.string().optional(),
    parent: z.string().optional(),
    tags,
  }),
  read('doc_get', 'POST', '/doc/get', 'A document by slug or id.', {
    slug: z.string().optional(),
    id: z.string().optional(),
  }),
  read('doc_search', 'POST', '/doc/search', 'Search documents.', {
    query: text('what to look for'),
    namespace: ns,
    limit,
  }),
  read('doc_list', 'POST', '/doc/list', 'List documents.', {
    namespace: ns,
    limit,
    roots_only: z.boolean().optional(),
    parent: z.string().optional(),
  }),
  read('graph', 'GET', '/graph', 'Memories and edges as a graph (or one memory neighbourhood with node_id).', {
    namespace: ns,
    node_id: z.string().optional(),
    limit,
  }),
  write('graph_edge', 'POST', '/graph/edge', 'Link two memories (or graph nodes) with a typed edge.', {
    source: text('memory or graph node id'),
    target: text('memory or graph node id'),
    edge_type: z.string().optional(),
    weight: z.number().optional(),
  }),
  read('contradictions', 'GET', '/contradictions', 'Memories retired by a correction (superseded).', {
    namespace: ns,
    limit,
  }),
];

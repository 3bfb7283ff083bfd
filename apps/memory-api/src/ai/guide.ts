import { RECALL_STRATEGIES } from '../config.ts';
import { MEMORY_TYPES } from '../memories/memory-types.ts';
import { SERVICE, VERSION } from '../meta.ts';

/** One operation an agent may call: where, when it is the right one, and a sample body or query. */
export interface GuideTool {
  name: string;
  group: 'memory' | 'ai' | 'rooms' | 'documents' | 'graph' | 'provenance' | 'lifecycle';
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  when: string;
  example?: Record<string, unknown>;
  /** Changes data: read-only tokens get 403. */
  writes: boolean;
}

const tool = (
  group: GuideTool['group'],
  name: string,
  method: GuideTool['method'],
  path: string,
  when: string,
  example?: Record<string, unknown>,
): GuideTool => ({
  name,
  group,
  method,
  path,
  when,
  writes: method !== 'GET' && !READS.has(path),
  ...(example ? { example } : {}),
});

/** POST routes that only read (bodies carry the query). */
const READS = new Set([
  '/recall',
  '/search',
  '/list',
  '/stats',
  '/context',
  '/room/recall',
  '/room/summary',
  '/room/summary-document',
  '/room/stats',
  '/room/document/list',
  '/doc/get',
  '/doc/list',
  '/doc/search',
  '/doc/mem-refs',
  '/doc/room/list',
  '/memory/doc-refs',
  '/orphans',
  '/verify',
]);

const ID = '<uuid>';

export const GUIDE_TOOLS: GuideTool[] = [
  tool('memory', 'remember', 'POST', '/remember', 'store a durable fact, preference, decision or procedure', {
    content: 'The user prefers dark mode in every editor.',
    type: 'preference',
    tags: ['ui'],
  }),
  tool('memory', 'recall', 'POST', '/recall', 'find memories relevant to a question', {
    query: 'which theme does the user like?',
    limit: 5,
  }),
  tool('memory', 'search', 'POST', '/search', 'exact keyword lookup', { query: 'dark mode' }),
  tool('memory', 'list', 'POST', '/list', 'browse newest memories', { namespace: 'default', limit: 20 }),
  tool('memory', 'recent', 'GET', '/recent?limit=10', 'what was stored last'),
  tool('memory', 'get', 'GET', '/memory?id=<uuid>', 'read one memory by id'),
  tool('memory', 'update', 'PUT', '/memory', 'correct a memory in place', { id: ID, content: 'corrected text' }),
  tool('memory', 'forget', 'DELETE', '/forget?id=<uuid>', 'retire a wrong memory (soft delete)'),
  tool('memory', 'pin', 'POST', '/memory/pin', 'protect a memory from aging', { id: ID, pinned: true }),
  tool('memory', 'feedback', 'POST', '/memory/feedback', 'a recalled memory helped or misled you', {
    id: ID,
    feedback: 'helpful',
  }),
  tool('ai', 'context', 'POST', '/context', 'a ready-to-paste block of relevant memories within a character budget', {
    query: 'plan the release',
    budget_chars: 2000,
  }),
  tool('ai', 'extract', 'POST', '/extract', 'turn a longer text into stored facts with entities and relationships', {
    content: 'Alice Johnson works at Acme Corp. She prefers email over calls.',
    namespace: 'crm',
  }),
  tool('ai', 'dream', 'POST', '/dream', 'derive insights: duplicates, contradictions, recurring entities', {
    dry_run: true,
  }),
  tool('rooms', 'room_create', 'POST', '/room/create', 'open a shared space for a team or task', { name: 'launch' }),
  tool('rooms', 'room_remember', 'POST', '/room/remember', 'store a memory inside a room', {
    room_id: 'launch',
    content: 'Launch is on the 3rd',
    author: 'planner',
  }),
  tool('rooms', 'room_recall', 'POST', '/room/recall', 'search one room (no query: chronological)', {
    room_id: 'launch',
    query: 'launch date',
  }),
  tool('rooms', 'room_memories', 'GET', '/room/memories?room_id=launch', "a room's memories in order"),
  tool('rooms', 'room_list', 'GET', '/room/list', 'all rooms'),
  tool('rooms', 'room_summary', 'POST', '/room/summary', 'clusters and statistics of a room', { room_id: 'launch' }),
  tool('rooms', 'room_document', 'POST', '/room/document', 'attach a long reference text to a room'),
  tool('rooms', 'room_update', 'POST', '/room/update', 'change a room title or description', {
    room_id: 'launch',
    title: 'Launch',
  }),
  tool('rooms', 'room_memory_move', 'POST', '/room/memory/move', 'move a memory between rooms', {
    memory_id: ID,
    from_room: 'launch',
    to_room: 'archive',
  }),
  tool('documents', 'doc_create', 'POST', '/doc/create', 'keep a reference document under a slug', {
    slug: 'runbook',
    content: '# Runbook ...',
    title: 'Runbook',
  }),
  tool('documents', 'doc_get', 'POST', '/doc/get', 'read a document by slug', { slug: 'runbook' }),
  tool('documents', 'doc_search', 'POST', '/doc/search', 'search documents', { query: 'rollback' }),
  tool('documents', 'doc_list', 'POST', '/doc/list', 'list documents (roots_only, parent)', { roots_only: true }),
  tool('documents', 'doc_update', 'POST', '/doc/update', 'change a document', { slug: 'runbook', content: '...' }),
  tool('graph', 'graph', 'GET', '/graph?node_id=<uuid>', 'the neighbourhood of a memory as nodes and edges'),
  tool('graph', 'graph_edge', 'POST', '/graph/edge', 'link two memories with a typed edge', {
    source: ID,
    target: ID,
    edge_type: 'depends_on',
  }),
  tool('graph', 'edges', 'GET', '/edges?id=<uuid>', 'every edge of a memory, with backlinks'),
  tool('graph', 'contradictions', 'GET', '/contradictions', 'memories retired by corrections'),
  tool('graph', 'contradiction_undo', 'POST', '/contradictions/undo', 'restore a memory retired by mistake', {
    id: ID,
  }),
  tool('provenance', 'provenance', 'GET', '/provenance?id=<uuid>', 'who wrote a memory, trust tier, tamper check'),
  tool('provenance', 'timeline', 'GET', '/timeline?id=<uuid>', 'the history of a memory'),
  tool('lifecycle', 'lifecycle_status', 'GET', '/lifecycle/status', 'active and deprecated counts, aging settings'),
  tool('lifecycle', 'promote', 'POST', '/lifecycle/promote', 'bring a deprecated memory back', { id: ID }),
  tool('lifecycle', 'consolidate', 'POST', '/consolidate', 'merge near-duplicates (try dry_run first)', {
    dry_run: true,
  }),
];

export function buildGuide(defaultStrategy: string) {
  return {
    service: SERVICE,
    version: VERSION,
    prompt: [
      'You have a long-term memory service.',
      'Before answering, call POST /context with the user question as `query` and put its `text` in your context (or POST /recall for the ranked list; add `namespace` to stay in one project).',
      'When you learn a durable fact, preference, decision or procedure, call POST /remember with short self-contained `content`, a `type` and a few `tags`; for a long text, POST /extract stores its facts for you.',
      'When something you remembered has changed, remember the new version with `detect_contradiction: true`: the old one is retired, not lost.',
      'Call DELETE /forget?id=... for memories that are wrong. Shared work goes in rooms (/room/...), long references in documents (/doc/...).',
      'The same operations are MCP tools at POST /mcp.',
    ].join(' '),
    memory_types: MEMORY_TYPES,
    recall_strategies: RECALL_STRATEGIES,
    default_strategy: defaultStrategy,
    mcp: { path: '/mcp', transport: 'streamable-http', stateless: true },
    tools: GUIDE_TOOLS,
  };
}

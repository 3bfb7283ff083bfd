import type { MemoryStore } from '../memories/memory-store.ts';
import { memorySpan, memoryTime, type Span, timeMatch } from './time.ts';

/** What reranking knows of a candidate: its time, speaker, session and neighbours in its namespace. */
export interface Situation {
  id: string;
  span: Span;
  /** Lower-cased name of who said or wrote it: metadata `speaker` or `author`, else a `Name:` prefix. */
  speaker: string | null;
  session: string | null;
  before: string | null;
  after: string | null;
}

const SITUATION_SQL = `SELECT c.id::text AS id, c.metadata, c.valid_from, c.created_at, left(c.content, 200) AS head,
  (SELECT p.id::text FROM memories p WHERE p.namespace = c.namespace AND p.created_at < c.created_at
      AND p.status = 'active' ORDER BY p.namespace DESC, p.created_at DESC LIMIT 1) AS before,
  (SELECT q.id::text FROM memories q WHERE q.namespace = c.namespace AND q.created_at > c.created_at
      AND q.status = 'active' ORDER BY q.namespace, q.created_at LIMIT 1) AS after
  FROM memories c WHERE c.id = ANY($1::uuid[])`;

const SPEAKER_PREFIX = /^\s*([\p{L}][\p{L}\p{M}'. -]{0,40}?):\s/u;

function speakerOf(meta: Record<string, unknown>, head: string): string | null {
  for (const key of ['speaker', 'author']) {
    const v = meta[key];
    if (typeof v === 'string' && v.trim()) return v.trim().toLowerCase();
  }
  return SPEAKER_PREFIX.exec(head)?.[1]?.trim().toLowerCase() ?? null;
}

/**
 * The situation of each memory (one round trip; its neighbours are the memories of the same
 * namespace written just before and just after it, the turns around it in a conversation: two
 * steps along the (namespace, created_at) index each).
 */
export async function situations(store: MemoryStore, ids: string[]): Promise<Map<string, Situation>> {
  if (ids.length === 0) return new Map();
  const rows = await store.db.sql.prepare(
    'memory_recall_situations',
    SITUATION_SQL,
  )<{
    id: string;
    metadata: unknown;
    valid_from: Date | string | null;
    created_at: Date | string;
    head: string;
    before: string | null;
    after: string | null;
  }>([ids]);
  const out = new Map<string, Situation>();
  for (const r of rows) {
    const meta = (r.metadata && typeof r.metadata === 'object' ? r.metadata : {}) as Record<string, unknown>;
    const time = memoryTime(meta, r.valid_from ? new Date(r.valid_from) : null, new Date(r.created_at));
    const session = meta.session ?? meta.session_id ?? meta.conversation_id;
    out.set(r.id, {
      id: r.id,
      span: memorySpan(time, r.head),
      speaker: speakerOf(meta, r.head),
      session: session === undefined || session === null ? null : String(session),
      before: r.before,
      after: r.after,
    });
  }
  return out;
}

/**
 * Whether two memories are turns of one conversation: the same session in their metadata, or, with
 * no session on either, both said by someone (a speaker or author, or a `Name:` prefix). Notes
 * written one after another are not a conversation and lend nothing.
 */
export const sameConversation = (a: Situation, b: Situation | undefined) =>
  b !== undefined &&
  (a.session !== null ? a.session === b.session : b.session === null && a.speaker !== null && b.speaker !== null);

/** Names of speakers that the question mentions, among the candidates' speakers. */
export function namedSpeakers(query: string, all: Iterable<Situation>): Set<string> {
  const words = new Set(
    query
      .toLowerCase()
      .match(/[\p{L}\p{M}']+/gu)
      ?.map((w) => w.replace(/'s$/, '')) ?? [],
  );
  const named = new Set<string>();
  for (const s of all) {
    if (!s.speaker || named.has(s.speaker)) continue;
    const first = s.speaker.split(/\s+/)[0] as string;
    if (words.has(s.speaker) || words.has(first)) named.add(s.speaker);
  }
  return named;
}

export { timeMatch };

import type { MemoryStore } from '../memories/memory-store.ts';
import type { MemoryRow } from '../memories/record.ts';
import { fromSqlRow, MEMORY_SELECT, sqlJson } from '../memories/sql-rows.ts';
import { memorySpan, memoryTime, type Span, timeMatch } from './time.ts';

/** What reranking knows of a candidate: its time, speaker, session and neighbours in its namespace. */
export interface Situation {
  id: string;
  /** The memory's row as read for reranking. */
  row: MemoryRow;
  span: Span;
  /** Lower-cased name of who said or wrote it: metadata `speaker` or `author`, else a `Name:` prefix. */
  speaker: string | null;
  session: string | null;
  /** The memories written just before it in its namespace, nearest first (NEIGHBOUR_REACH at most). */
  before: string[];
  /** The memories written just after it, nearest first. */
  after: string[];
}

/** How many turns on each side a candidate's neighbours reach: a reply, and its speaker's next turn. */
export const NEIGHBOUR_REACH = 2;

/**
 * Whether a memory can be a turn of a conversation (see `sameConversation`): a session, speaker or
 * author in its metadata, or a colon where `speakerOf` looks for a `Name:` prefix. A superset of
 * what `speakerOf` accepts, so that only memories that could never lend skip the neighbour lookups
 * (two index probes each); a plain `strpos` costs nothing beside a regular expression per row.
 */
const MAYBE_TURN = `(c.metadata ?| array['session', 'session_id', 'conversation_id', 'session_time', 'speaker', 'author']
  OR strpos(left(c.content, 200), ':') > 0)`;

// Read for those of the memories whose neighbours are wanted ($2), when they can be a turn.
const WANTS_NEIGHBOURS = `c.id = ANY($2::uuid[]) AND ${MAYBE_TURN}`;

// The whole row, as one JSON value: the candidates that make the answer are taken from here, not
// read again. Decoding a row's 23 columns one by one cost the embedded driver about 0.06 ms a row
// (2.4 ms for 40 rows, against 1.3 ms as JSON). $1 the memories to read, $2 those of them whose
// neighbours are wanted.
const SITUATION_SQL = `SELECT (SELECT row_to_json(r) FROM (SELECT ${MEMORY_SELECT}) r) AS row,
  CASE WHEN ${WANTS_NEIGHBOURS} THEN ARRAY(SELECT p.id::text FROM memories p WHERE p.namespace = c.namespace
      AND p.created_at < c.created_at AND p.status = 'active' ORDER BY p.namespace DESC, p.created_at DESC
      LIMIT ${NEIGHBOUR_REACH}) END AS before,
  CASE WHEN ${WANTS_NEIGHBOURS} THEN ARRAY(SELECT q.id::text FROM memories q WHERE q.namespace = c.namespace
      AND q.created_at > c.created_at AND q.status = 'active' ORDER BY q.namespace, q.created_at
      LIMIT ${NEIGHBOUR_REACH}) END AS after
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
 * The situation of each of `ids` in one round trip, with the neighbours of those of `neighboursOf`
 * that can be a conversation's turn: the memories of the same namespace written just before and
 * just after it (steps along the (namespace, created_at) index); none for the others.
 */
export async function situations(
  store: MemoryStore,
  ids: string[],
  neighboursOf: string[] = [],
): Promise<Map<string, Situation>> {
  if (ids.length === 0) return new Map();
  const rows = await store.db.sql.prepare(
    'memory_recall_situations',
    SITUATION_SQL,
  )<{ row: Record<string, unknown>; before: string[] | null; after: string[] | null }>([ids, neighboursOf]);
  const out = new Map<string, Situation>();
  for (const r of rows) {
    const row = fromSqlRow(sqlJson(r.row) as Record<string, unknown>);
    const meta = (row.metadata && typeof row.metadata === 'object' ? row.metadata : {}) as Record<string, unknown>;
    const time = memoryTime(meta, row.validFrom, row.createdAt);
    const head = row.content.slice(0, 200);
    out.set(row.id, {
      id: row.id,
      row,
      span: memorySpan(time, head),
      speaker: speakerOf(meta, head),
      session: sessionOf(meta),
      before: r.before ?? [],
      after: r.after ?? [],
    });
  }
  return out;
}

/** A memory's session from its metadata (`session`, `session_id`, `conversation_id` or `session_time`). */
export function sessionOf(meta: Record<string, unknown>): string | null {
  const session = meta.session ?? meta.session_id ?? meta.conversation_id ?? meta.session_time;
  return session === undefined || session === null ? null : String(session);
}

/**
 * Whether two memories are turns of one conversation: the same session in their metadata, or, with
 * no session on either, both said by someone (a speaker or author, or a `Name:` prefix). Notes
 * written one after another are not a conversation and lend nothing.
 */
export const sameConversation = (a: Situation, b: Situation | undefined) =>
  b !== undefined &&
  (a.session !== null ? a.session === b.session : b.session === null && a.speaker !== null && b.speaker !== null);

/**
 * Names of speakers that the question mentions, among the candidates' speakers. A name said only
 * in the possessive beside another name said plainly is what the question is about, not who
 * speaks ("What did Jon say about Gina's store?" asks for Jon's turns): then only the plain ones.
 */
export function namedSpeakers(query: string, all: Iterable<Situation>): Set<string> {
  const tokens = query.toLowerCase().match(/[\p{L}\p{M}']+/gu) ?? [];
  const plain = new Set(tokens.filter((w) => !w.endsWith("'s")));
  const possessive = new Set(tokens.filter((w) => w.endsWith("'s")).map((w) => w.slice(0, -2)));
  const named = { plain: new Set<string>(), possessive: new Set<string>() };
  for (const s of all) {
    if (!s.speaker) continue;
    const first = s.speaker.split(/\s+/)[0] as string;
    if (plain.has(s.speaker) || plain.has(first)) named.plain.add(s.speaker);
    else if (possessive.has(s.speaker) || possessive.has(first)) named.possessive.add(s.speaker);
  }
  return named.plain.size > 0 ? named.plain : named.possessive;
}

export { timeMatch };

import { createHash } from 'node:crypto';
import { dot, tokenize } from '@trove/embeddings';
import { filterSql, type MemoryFilter, matchesFilter } from '../memories/filters.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { RECALL_EF } from '../memories/vector-catalog.ts';

/** One arm's ranking: ids best first, with the arm's own signal for `explain`. */
export interface ArmHit {
  id: string;
  /** The arm's raw signal: cosine similarity, full-text rank, or a blend. */
  signal: number;
}

/** Query words as an OR of stemmed terms: a question shares only some words with its answer. */
export function orTsQuery(query: string): string {
  const words = tokenize(query)
    .flatMap((w) => w.split("'"))
    .filter((w) => w.length > 0);
  return [...new Set(words)].join(' | ');
}

export function vectorArm(store: MemoryStore, query: Float32Array, n: number, filter: MemoryFilter): ArmHit[] {
  return store.catalog
    .search(query, n, filter, RECALL_EF)
    .filter((h) => h.score > 0)
    .map((h) => ({ id: h.id, signal: h.score }));
}

/** Rows ranked at most, per tier: ranking every match of common words is what makes full text slow. */
const STRONG_MATCH_CAP = 5000;
const WEAK_MATCH_CAP = 1000;
/** Queries with more distinct words than this rank matches of any word (pairs would explode). */
const MAX_PAIRED_WORDS = 12;

const WORDS_SQL = `SELECT tsvector_to_array(to_tsvector('english', $1::text)) AS words`;

/** A lexeme as a tsquery operand: quoted, with quotes and backslashes doubled. */
const tsqueryLexeme = (word: string) => `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * Postgres full text (tsvector, `ts_rank` over an OR of the query's stemmed words); the arm keeps
 * the spec's name `fts5`. In two tiers, so that a large store does not rank every row that shares
 * one common word with the query (at 100k memories a 7-word question matched 5,000+ rows; ranking
 * them took 15-20 ms): first the rows holding at least two of the query's words, found through the
 * GIN index as an OR of one condition per word pair (an AND of two words is a cheap intersection
 * of two posting lists; one tsquery holding every pair was 3x slower); only when those are fewer
 * than `n`, rows holding one word. The words come from Postgres's own parser (`to_tsvector`) and
 * are quoted into the queries, so no user text is ever read as query syntax.
 */
export async function ftsArm(store: MemoryStore, query: string, n: number, filter: MemoryFilter): Promise<ArmHit[]> {
  const [parsed] = await store.db.sql.prepare('memory_fts_words', WORDS_SQL)<{ words: string[] | null }>([query]);
  const words = (parsed?.words ?? []).map(tsqueryLexeme);
  if (words.length === 0) return [];
  const params: unknown[] = [words.join(' | ')];
  const twoWords: string[] = [];
  if (words.length === 1 || words.length > MAX_PAIRED_WORDS) {
    twoWords.push('q.any_word');
  } else {
    for (let i = 0; i < words.length; i++) {
      for (let j = i + 1; j < words.length; j++) {
        params.push(`${words[i]} & ${words[j]}`);
        twoWords.push(`$${params.length}::tsquery`);
      }
    }
  }
  const strongMatch = `(${twoWords.map((q) => `m.search_vector @@ ${q}`).join(' OR ')})`;
  const where = filterSql(filter, params);
  params.push(n);
  const limit = `$${params.length}`;
  const text = `WITH q AS (SELECT $1::tsquery AS any_word),
     strong AS (
       SELECT m.id, ts_rank(m.search_vector, q.any_word, 1) AS rank, m.created_at
         FROM (SELECT m.id, m.search_vector, m.created_at FROM memories m, q
                WHERE ${strongMatch} AND ${where} LIMIT ${STRONG_MATCH_CAP}) AS m, q
        ORDER BY rank DESC, m.created_at DESC LIMIT ${limit}),
     weak AS (
       SELECT m.id, m.search_vector, m.created_at FROM memories m, q
        WHERE (SELECT count(*) FROM strong) < ${limit} AND m.search_vector @@ q.any_word
          AND NOT ${strongMatch} AND ${where}
        LIMIT ${WEAK_MATCH_CAP})
     SELECT id::text AS id, rank::float8 AS rank, created_at FROM strong
     UNION ALL
     SELECT weak.id::text, ts_rank(weak.search_vector, q.any_word, 1)::float8, weak.created_at FROM weak, q
     ORDER BY rank DESC, created_at DESC LIMIT ${limit}`;
  // Planning an OR of 21 conditions costs about 1 ms: the text depends only on the number of word
  // pairs and the filter's shape, so each text is planned once and named by its hash.
  const name = `memory_fts_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  const rows = await store.db.sql.prepare(name, text)<{ id: string; rank: number }>(params);
  return rows.map((r) => ({ id: r.id, signal: Number(r.rank) }));
}

/**
 * One ranking from both signals at once: cosine similarity plus full-text rank scaled to the best
 * text match, half and half. Unlike fusion it compares scores, not ranks.
 */
export function hybridArm(store: MemoryStore, query: Float32Array, vector: ArmHit[], text: ArmHit[]): ArmHit[] {
  const topText = Math.max(0, ...text.map((h) => h.signal));
  const sim = new Map(vector.map((h) => [h.id, h.signal]));
  const textRank = new Map(text.map((h) => [h.id, h.signal]));
  const ids = new Set([...sim.keys(), ...textRank.keys()]);
  const hits: ArmHit[] = [];
  for (const id of ids) {
    let s = sim.get(id);
    if (s === undefined) {
      const v = store.catalog.vector(id);
      s = v ? dot(query, v) : 0;
    }
    const t = topText > 0 ? (textRank.get(id) ?? 0) / topText : 0;
    hits.push({ id, signal: 0.5 * Math.max(0, s) + 0.5 * t });
  }
  return hits.sort((a, b) => b.signal - a.signal);
}

/**
 * Seeds (the best vector hits) and their neighbours over memory edges; a neighbour scores its
 * seed's similarity times the edge weight, a little below the seed itself.
 */
export async function graphArm(store: MemoryStore, seeds: ArmHit[], filter: MemoryFilter): Promise<ArmHit[]> {
  const top = seeds.slice(0, 5);
  if (top.length === 0) return [];
  const seedScore = new Map(top.map((h) => [h.id, h.signal]));
  const ids = [...seedScore.keys()];
  const edges = await store.prisma.memoryEdge.findMany({
    where: { OR: [{ sourceId: { in: ids } }, { targetId: { in: ids } }] },
    select: { sourceId: true, targetId: true, weight: true },
  });
  const score = new Map(seedScore);
  for (const e of edges) {
    for (const [from, to] of [
      [e.sourceId, e.targetId],
      [e.targetId, e.sourceId],
    ] as const) {
      const s = seedScore.get(from);
      if (s === undefined) continue;
      const entry = store.catalog.entry(to);
      if (!entry || !matchesFilter(entry, filter)) continue;
      const via = s * e.weight * 0.9;
      if (via > (score.get(to) ?? 0)) score.set(to, via);
    }
  }
  return [...score].map(([id, signal]) => ({ id, signal })).sort((a, b) => b.signal - a.signal);
}

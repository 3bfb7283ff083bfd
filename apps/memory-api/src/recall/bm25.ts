import { createHash } from 'node:crypto';
import { filterSql, type MemoryFilter } from '../memories/filters.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { TermStatistics, type TermStats } from './term-stats.ts';

export interface TextHit {
  id: string;
  /** The memory's Okapi BM25 score for the query. */
  signal: number;
}

/** Okapi BM25's usual constants: term-frequency saturation and length normalisation. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * Memories scored at most per query. Ranking every memory that shares one common word with a
 * question is what makes full text slow at 100k memories, so the candidates are the memories
 * holding the query's rarest words, taken rarest first until their document frequencies add up
 * to this; the common words still count in every candidate's score. A memory holding only words
 * that hundreds of others hold would score below those candidates anyway (its idf is small).
 */
const CANDIDATE_BUDGET = 1000;

const WORDS_SQL = `SELECT tsvector_to_array(to_tsvector('english', $1::text)) AS words`;

const statistics = new WeakMap<MemoryStore, TermStatistics>();
export function termStatistics(store: MemoryStore): TermStatistics {
  let s = statistics.get(store);
  if (!s) {
    s = new TermStatistics(store);
    statistics.set(store, s);
  }
  return s;
}

/** Okapi idf, never negative: ln(1 + (N - df + 0.5) / (df + 0.5)). */
export const idf = (stats: TermStats, word: string) => {
  const df = Math.min(stats.df.get(word) ?? 0, stats.docs);
  return Math.log(1 + (stats.docs - df + 0.5) / (df + 0.5));
};

/** The query's words as Postgres stems them (its own parser, so no user text is read as syntax). */
export async function queryWords(store: MemoryStore, query: string): Promise<string[]> {
  const [parsed] = await store.db.sql.prepare('memory_fts_words', WORDS_SQL)<{ words: string[] | null }>([query]);
  return parsed?.words ?? [];
}

/** The rarest words whose memories, together, stay within the candidate budget (at least one). */
export function candidateWords(stats: TermStats, words: string[]): string[] {
  const byRarity = [...words].sort((a, b) => (stats.df.get(a) ?? 0) - (stats.df.get(b) ?? 0));
  const chosen: string[] = [];
  let total = 0;
  for (const w of byRarity) {
    const df = stats.df.get(w) ?? 0;
    if (chosen.length > 0 && total + df > CANDIDATE_BUDGET) break;
    chosen.push(w);
    total += df;
  }
  return chosen;
}

const tsqueryLexeme = (word: string) => `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * Full text as Okapi BM25 over Postgres's tsvector (English stemming and stop words): idf from
 * the namespace's document frequencies, length normalisation by distinct words against their
 * average. A word counts as present or absent (tf 1): reading each candidate's positions
 * (`unnest(tsvector)`) cost 0.15 ms a row in PGlite, 250 ms for a common question at 20k
 * memories, while a present/absent test per word is the index's own operator; turns and notes
 * rarely repeat a word. The GIN index finds the candidates; Postgres scores them.
 */
export async function bm25(store: MemoryStore, query: string, n: number, filter: MemoryFilter): Promise<TextHit[]> {
  const words = await queryWords(store, query);
  if (words.length === 0) return [];
  const stats = await termStatistics(store).get(filter.namespace);
  const params: unknown[] = [
    candidateWords(stats, words).map(tsqueryLexeme).join(' | '),
    Math.max(1, stats.averageLength),
  ];
  const present = words.map((w) => {
    params.push(tsqueryLexeme(w), idf(stats, w));
    return `CASE WHEN c.search_vector @@ $${params.length - 1}::tsquery THEN $${params.length}::float8 ELSE 0 END`;
  });
  const where = filterSql(filter, params);
  params.push(n);
  const text = `WITH candidates AS (
      SELECT m.id, m.search_vector, m.created_at FROM memories m
       WHERE m.search_vector @@ $1::tsquery AND ${where} LIMIT ${CANDIDATE_BUDGET + 500})
    SELECT c.id::text AS id, (${present.join(' + ')}) * ${BM25_K1 + 1}
             / (1 + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * length(c.search_vector)::float8 / $2::float8)) AS score,
           c.created_at
      FROM candidates c
     ORDER BY score DESC, c.created_at DESC LIMIT $${params.length}`;
  const name = `memory_bm25_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  const rows = await store.db.sql.prepare(name, text)<{ id: string; score: number }>(params);
  return rows.map((r) => ({ id: r.id, signal: Number(r.score) }));
}

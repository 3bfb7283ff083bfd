import { createHash } from 'node:crypto';
import { filterSql, type MemoryFilter } from '../memories/filters.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { TermStatistics, type TermStats } from './term-stats.ts';

export interface TextHit {
  id: string;
  /** The memory's Okapi BM25 score for the query. */
  signal: number;
  /** 0..1, comparable across queries: the score over the query's ceiling (see `ceiling`). */
  strength: number;
}

/**
 * The BM25 score of a memory of average length holding every query word once: the sum of the
 * words' idf. A word no memory of the namespace holds has the largest idf, so a question about
 * people or things the namespace has never seen has a high ceiling that nothing reaches.
 */
export const ceiling = (stats: TermStats, words: string[]) =>
  [...new Set(words)].reduce((s, w) => s + idf(stats, w), 0);

/** Okapi BM25's usual constants: term-frequency saturation and length normalisation. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * Memories scored per query, about (see `candidateQuery`). Ranking every memory that shares one
 * common word with a question is what makes full text slow at 100k memories, and a memory holding
 * only words that hundreds of others hold scores below those holding the rarer ones (its idf is
 * small), while every query word still counts in each candidate's score.
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

/** Words paired when every query word is common: 6 give 15 pairs, one GIN condition. */
const PAIRED_WORDS = 6;

/** Which memories BM25 scores: those matching `tsquery`, and, when it finds too few, `fallback`'s. */
interface Candidates {
  tsquery: string;
  fallback?: string;
}

/**
 * The candidates for a query's words. Usually the memories holding its rarest words, taken rarest
 * first while their document frequencies add up to the budget (at least one word). When even the
 * rarest word is held by more than the budget, the budget's worth of its memories the index
 * happens to return first would be scored (3.3 ms at 100k, and it can miss the best): the memories
 * holding two of the (up to six) rarest words are taken instead, which BM25 ranks above those
 * holding one when no word is rare, and the rarest word's memories only if those are too few.
 * Words the statistics have not seen are always included (a memory stored since they were
 * counted must still be found), but never count as the one word taken.
 */
function candidateQuery(stats: TermStats, words: string[]): Candidates {
  const df = (w: string) => stats.df.get(w) ?? 0;
  const unseen = words.filter((w) => df(w) === 0).map(tsqueryLexeme);
  const seen = words.filter((w) => df(w) > 0).sort((a, b) => df(a) - df(b));
  const rarest = seen[0];
  if (rarest === undefined || df(rarest) <= CANDIDATE_BUDGET) {
    const chosen: string[] = [];
    let total = 0;
    for (const w of seen) {
      if (total + df(w) > CANDIDATE_BUDGET) break;
      chosen.push(tsqueryLexeme(w));
      total += df(w);
    }
    return { tsquery: [...unseen, ...chosen].join(' | ') };
  }
  const paired = seen.slice(0, PAIRED_WORDS).map(tsqueryLexeme);
  const pairs = paired.flatMap((a, i) => paired.slice(i + 1).map((b) => `(${a} & ${b})`));
  if (pairs.length === 0) return { tsquery: [...unseen, tsqueryLexeme(rarest)].join(' | ') };
  return { tsquery: [...unseen, ...pairs].join(' | '), fallback: tsqueryLexeme(rarest) };
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
  const candidates = candidateQuery(stats, words);
  const params: unknown[] = [candidates.tsquery, Math.max(1, stats.averageLength)];
  const present = words.map((w) => {
    params.push(tsqueryLexeme(w), idf(stats, w));
    return `CASE WHEN c.search_vector @@ $${params.length - 1}::tsquery THEN $${params.length}::float8 ELSE 0 END`;
  });
  const where = filterSql(filter, params);
  params.push(n);
  const limit = `$${params.length}`;
  const matching = (tsquery: string, and = '') => `SELECT m.id, m.search_vector, m.created_at FROM memories m
       WHERE m.search_vector @@ ${tsquery}::tsquery${and} AND ${where} LIMIT ${CANDIDATE_BUDGET + 500}`;
  let scored = matching('$1');
  if (candidates.fallback !== undefined) {
    params.push(candidates.fallback);
    const tooFew = ` AND NOT m.search_vector @@ $1::tsquery AND (SELECT count(*) FROM first) < ${limit}`;
    scored = `WITH first AS (${scored}) SELECT * FROM first UNION ALL (${matching(`$${params.length}`, tooFew)})`;
  }
  const text = `WITH candidates AS (${scored})
    SELECT c.id::text AS id, (${present.join(' + ')}) * ${BM25_K1 + 1}
             / (1 + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * length(c.search_vector)::float8 / $2::float8)) AS score,
           c.created_at
      FROM candidates c
     ORDER BY score DESC, c.created_at DESC LIMIT ${limit}`;
  const name = `memory_bm25_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  const rows = await store.db.sql.prepare(name, text)<{ id: string; score: number }>(params);
  const top = ceiling(stats, words);
  return rows.map((r) => ({ id: r.id, signal: Number(r.score), strength: Math.min(1, Number(r.score) / top) }));
}

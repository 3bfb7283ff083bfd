import type { RecallStrategy } from '../config.ts';
import type { MemoryFilter } from '../memories/filters.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { type MemoryJson, type MemoryRow, toMemoryJson } from '../memories/record.ts';
import { type ArmHit, ftsArm, graphArm, hybridArm, vectorArm } from './arms.ts';
import { termStatistics } from './bm25.ts';
import { BOOST_FACTOR_RANGE, type Boosts, boostsFor } from './boosts.ts';
import { sessionOf } from './context.ts';
import { type ArmName, type Fused, fuse, type WeightedArm } from './fuse.ts';
import { clientScore, type Reranked, rerank } from './rerank.ts';
import { questionTime } from './time.ts';
import { questionVector } from './vector-query.ts';

export interface RecallInput {
  query: string;
  limit: number;
  strategy: RecallStrategy;
  filter: MemoryFilter;
  minScore: number;
  explain: boolean;
}

export interface RecallResult extends MemoryJson {
  score: number;
  explain?: {
    strategy: RecallStrategy;
    arms: Fused['arms'];
    fused: number;
    context: number;
    /** How closely the memory's words meet the question's (soft-match.ts); null when not measured. */
    soft: number | null;
    speaker: number;
    time: number | null;
    boosts: Boosts;
    score: number;
  };
}

// Fusion weights, tuned on the tuning half of bench:quality: with the question's words weighed by
// their rarity in the namespace (vector-query.ts) the vector arm leads; full text breaks its ties.
export const ARM_WEIGHTS: Record<ArmName, number> = { vector: 0.5, hybrid: 1, fts5: 1, graph: 0.8 };

/** `strict`'s bar: the score at which a hit is as likely related to the question as not (see SCORE). */
export const STRICT_MIN_SCORE = 0.5;

/**
 * The score below which results are dropped: `min_score` when given, else strict's bar when
 * `strict` is set, or when nothing says otherwise and the results go into a prompt (a pack, or
 * /context): an agent's context is better empty than filled with unrelated memories.
 */
export const minScoreFor = (minScore: number | undefined, strict: boolean | undefined, forPrompt: boolean) =>
  minScore ?? ((strict ?? forPrompt) ? STRICT_MIN_SCORE : 0);

/** How many candidates each arm brings to fusion for a given result limit. */
export const CANDIDATES = { min: 30 };
const candidatesFor = (limit: number) => Math.max(CANDIDATES.min, limit * 3);

export async function recall(store: MemoryStore, input: RecallInput): Promise<RecallResult[]> {
  const n = candidatesFor(input.limit);
  const now = Date.now();
  // A date the question names is matched against memories' times, not searched as words.
  const asked = questionTime(input.query, now);
  const needsVector = input.strategy !== 'fts5';
  const needsText = input.strategy === 'fts5' || input.strategy === 'hybrid' || input.strategy === 'fusion';
  // The full-text query runs on the database's thread while the query is embedded and the vector
  // index searched here.
  const textSearch = needsText ? ftsArm(store, asked.text, n, input.filter) : Promise.resolve([]);
  textSearch.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  const stats = needsVector ? await termStatistics(store).get(input.filter.namespace) : null;
  const queryVector = needsVector ? await questionVector(store, asked.text, stats) : null;
  const vectorHits = queryVector ? await vectorArm(store, queryVector, n, input.filter) : [];
  const vector: ArmHit[] = vectorHits;
  // Which text each hit's vector was embedded from when searched: checked against the rows below.
  const searchedHashes = new Map(vectorHits.map((h) => [h.id, h.contentHash]));
  const text: ArmHit[] = await textSearch;

  const arm = (name: ArmName, hits: ArmHit[]): WeightedArm => ({ name, weight: ARM_WEIGHTS[name], hits });
  let arms: WeightedArm[];
  switch (input.strategy) {
    case 'vector':
      arms = [arm('vector', vector)];
      break;
    case 'fts5':
      arms = [arm('fts5', text)];
      break;
    case 'hybrid':
      arms = [arm('hybrid', await hybridArm(store, queryVector as Float32Array, vector, text))];
      break;
    case 'graph':
      // Seeds and their neighbours, as before fusion was tuned: the vector list 1.0, the graph 0.8.
      arms = [{ name: 'vector', weight: 1, hits: vector }, arm('graph', await graphArm(store, vector, input.filter))];
      break;
    default:
      arms = [arm('vector', vector), arm('fts5', text)];
  }
  const spreads = input.limit > SESSION_SPREAD.from;
  const ranked = await rerank(store, fuse(arms), {
    query: input.query,
    span: asked.span,
    filter: input.filter,
    limit: input.limit,
    soft: input.strategy === 'fusion',
    read: spreads ? SESSION_SPREAD.pool : 0,
  });
  // Boosts move a score by BOOST_FACTOR_RANGE at most: only candidates that can still make the
  // answer once boosted are read (with ~60 candidates for 10 results, most stop here, unread).
  const floor = (ranked[input.limit - 1]?.score ?? 0) * BOOST_FACTOR_RANGE.min;
  const cut = ranked.findIndex((r) => r.score * BOOST_FACTOR_RANGE.max < floor);
  // Spreading over sessions weighs the sessions of the best `pool` candidates.
  const keep = spreads ? Math.max(cut, SESSION_SPREAD.pool) : cut;
  const contenders = cut < 0 ? ranked : ranked.slice(0, keep);
  // Reranking read the rows of the best candidates; only the others are read here.
  const rows = await store.getMany(contenders.filter((r) => !r.row).map((r) => r.id));
  for (const r of contenders) if (r.row) rows.set(r.id, r.row);
  const scored: Scored[] = [];
  for (const r of contenders) {
    const row = rows.get(r.id);
    // What the database says is gone, moved or rewritten is not returned, whatever an index said.
    if (!row || !store.confirms(row, input.filter, searchedHashes.get(r.id))) continue;
    const boosts = boostsFor(row, now);
    const score = clientScore(r.score * boosts.factor, input.strategy);
    if (score >= input.minScore) scored.push({ r, row, boosts, score });
  }
  scored.sort((a, b) => b.score - a.score);
  return spreadOverSessions(scored, input.limit)
    .slice(0, input.limit)
    .map(({ r, row, boosts, score }) =>
      Object.assign(
        toMemoryJson(row),
        { score: round(score) },
        input.explain
          ? {
              explain: {
                strategy: input.strategy,
                arms: roundAll(r.fused.arms),
                fused: round(r.fused.fused),
                context: round(r.context),
                soft: r.soft === undefined ? null : round(r.soft),
                speaker: r.speaker,
                time: r.time === null ? null : round(r.time),
                boosts: roundAll(boosts),
                score: round(score),
              },
            }
          : {},
      ),
    );
}

/** A candidate that passed: its row, boosts and client score (answered only if among the first). */
interface Scored {
  r: Reranked;
  row: MemoryRow;
  boosts: Boosts;
  score: number;
}

/**
 * Where results stop following the score alone: each result after the first `from` is the best
 * one of the session not shown yet that the candidates support most (the sum of its candidates'
 * scores), until no such session is left; then the rest by score. A question's evidence is often
 * spread over sessions, and the turns just after the best ones mostly repeat their session. On
 * bench:locomo's tuning conversations the first ten results hold one of the evidence's sessions
 * for 0.951 of questions instead of 0.926, and an evidence turn for 0.791 instead of 0.824
 * (`from` 7: 0.945 and 0.811; see the README).
 * Memories with no session (metadata `session`, `session_id`, `conversation_id`, `session_time`)
 * each count as their own; a recall of `from` results or fewer is not affected. The sessions of
 * the best `pool` candidates are weighed (their rows are read with the reranked ones, in the same
 * round trip); 40 finds what all of them find on LoCoMo, 20 less (0.939).
 */
export const SESSION_SPREAD = { from: 5, pool: 40 };

function spreadOverSessions(results: Scored[], limit: number): Scored[] {
  const { from } = SESSION_SPREAD;
  if (limit <= from || results.length <= from) return results;
  const keys = results.map((s) => sessionOf(s.row.metadata as Record<string, unknown>) ?? s.row.id);
  const support = new Map<string, number>();
  for (let i = 0; i < results.length; i++) {
    const key = keys[i] as string;
    support.set(key, (support.get(key) ?? 0) + (results[i] as Scored).score);
  }
  const shown = new Set(keys.slice(0, from));
  // The results are in score order, so a session's first result here is its best.
  const best = new Map<string, Scored>();
  for (let i = from; i < results.length; i++) {
    const key = keys[i] as string;
    if (!shown.has(key) && !best.has(key)) best.set(key, results[i] as Scored);
  }
  const fresh = [...best.entries()]
    .sort(([a], [b]) => (support.get(b) ?? 0) - (support.get(a) ?? 0))
    .slice(0, limit - from)
    .map(([, r]) => r);
  const picked = new Set(fresh);
  return [...results.slice(0, from), ...fresh, ...results.slice(from).filter((r) => !picked.has(r))];
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Every number of a signal record rounded for the answer (ranks are whole already). */
const roundAll = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' ? round(v) : roundAll(v)])) as T;

import type { RecallStrategy } from '../config.ts';
import type { MemoryFilter } from '../memories/filters.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { type MemoryJson, toMemoryJson } from '../memories/record.ts';
import { type ArmHit, ftsArm, graphArm, hybridArm, vectorArm } from './arms.ts';
import { BOOST_FACTOR_RANGE, type Boosts, boostsFor } from './boosts.ts';
import { type ArmName, type Fused, fuse, type WeightedArm } from './fuse.ts';

export interface RecallInput {
  query: string;
  limit: number;
  strategy: RecallStrategy;
  filter: MemoryFilter;
  minScore: number;
  explain: boolean;
  /** In fusion, vector hits below this cosine similarity do not count as found by the vector arm. */
  vectorFloor: number;
}

export interface RecallResult extends MemoryJson {
  score: number;
  explain?: {
    strategy: RecallStrategy;
    arms: Fused['arms'];
    fused: number;
    boosts: Boosts;
    score: number;
  };
}

// Fusion weights the vector arm above the hybrid and full-text arms (tuned on bench/retrieval-set).
const ARM_WEIGHTS: Record<ArmName, number> = { vector: 1, hybrid: 0.9, fts5: 0.9, graph: 0.8 };

/** How many candidates each arm brings to fusion for a given result limit. */
const candidatesFor = (limit: number) => Math.max(30, limit * 3);

export async function recall(store: MemoryStore, input: RecallInput): Promise<RecallResult[]> {
  const n = candidatesFor(input.limit);
  const needsVector = input.strategy !== 'fts5';
  const needsText = input.strategy === 'fts5' || input.strategy === 'hybrid' || input.strategy === 'fusion';
  // The full-text query runs on the database's thread while the query is embedded and the vector
  // index searched here.
  const textSearch = needsText ? ftsArm(store, input.query, n, input.filter) : Promise.resolve([]);
  textSearch.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  const queryVector = needsVector ? await store.embedOne(input.query) : null;
  const vector: ArmHit[] = queryVector ? vectorArm(store, queryVector, n, input.filter) : [];
  const text: ArmHit[] = await textSearch;

  const arm = (name: ArmName, hits: ArmHit[]): WeightedArm => ({ name, weight: ARM_WEIGHTS[name], hits });
  // Rank fusion rewards being found by several arms, so a weak vector match must not count as a
  // find: in fusion the vector arm keeps only hits above the floor. Alone, it ranks all.
  const confident = vector.filter((h) => h.signal >= input.vectorFloor);
  let arms: WeightedArm[];
  switch (input.strategy) {
    case 'vector':
      arms = [arm('vector', vector)];
      break;
    case 'fts5':
      arms = [arm('fts5', text)];
      break;
    case 'hybrid':
      arms = [arm('hybrid', hybridArm(store, queryVector as Float32Array, vector, text))];
      break;
    case 'graph':
      arms = [arm('vector', vector), arm('graph', await graphArm(store, vector, input.filter))];
      break;
    default:
      arms = [
        arm('vector', confident),
        arm('hybrid', hybridArm(store, queryVector as Float32Array, vector, text)),
        arm('fts5', text),
      ];
  }
  const fused = fuse(arms);
  const now = Date.now();
  const results: RecallResult[] = [];
  const { candidates, rows } = await contenders(store, fused, input);
  for (const f of candidates) {
    const row = rows.get(f.id);
    if (!row) continue;
    const boosts = boostsFor(row, now);
    const score = Math.min(1, f.fused * boosts.factor);
    if (score < input.minScore) continue;
    results.push({
      ...toMemoryJson(row),
      score: round(score),
      ...(input.explain
        ? {
            explain: {
              strategy: input.strategy,
              arms: roundArms(f.arms),
              fused: round(f.fused),
              boosts: roundBoosts(boosts),
              score: round(score),
            },
          }
        : {}),
    });
  }
  results.sort((a, b) => b.score - a.score);
  return results.slice(0, input.limit);
}

/**
 * Rows of the fused candidates that can still make the answer once boosted: boosts scale a fused
 * score by BOOST_FACTOR_RANGE at most, so a candidate whose best boosted score is below the worst
 * boosted score of the limit-th one (or below min_score) can never be shown. Fusion brings ~60
 * candidates for 10 results; most stop here, unread. When a row the cut counted on has gone (a
 * concurrent forget), the rest are read after all.
 */
async function contenders(store: MemoryStore, fused: Fused[], input: RecallInput) {
  const boosted = (f: Fused, factor: number) => Math.min(1, f.fused * factor);
  const limitth = fused[input.limit - 1];
  const floor = Math.max(input.minScore, limitth ? boosted(limitth, BOOST_FACTOR_RANGE.min) : 0);
  const cut = fused.findIndex((f) => boosted(f, BOOST_FACTOR_RANGE.max) < floor);
  const first = cut < 0 ? fused : fused.slice(0, cut);
  const rows = await store.getMany(first.map((f) => f.id));
  if (first.length === fused.length || first.slice(0, input.limit).every((f) => rows.has(f.id))) {
    return { candidates: first, rows };
  }
  for (const [id, row] of await store.getMany(fused.slice(first.length).map((f) => f.id))) rows.set(id, row);
  return { candidates: fused, rows };
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

function roundArms(arms: Fused['arms']): Fused['arms'] {
  const out: Fused['arms'] = {};
  for (const [name, a] of Object.entries(arms)) {
    out[name as ArmName] = { rank: a.rank, signal: round(a.signal), contribution: round(a.contribution) };
  }
  return out;
}

function roundBoosts(b: Boosts): Boosts {
  return {
    importance: round(b.importance),
    pinned: round(b.pinned),
    feedback: round(b.feedback),
    recency: round(b.recency),
    factor: round(b.factor),
  };
}

import type { MemoryRow } from '../memories/record.ts';

export interface Boosts {
  importance: number;
  pinned: number;
  feedback: number;
  recency: number;
  /** What the fused score is multiplied by. */
  factor: number;
}

const DAY_MS = 86_400_000;
const IMPORTANCE = 0.1; // times (importance - 0.5): ±5%
const PINNED = 0.03;
const FEEDBACK = 0.05; // times tanh(net votes / 3): ±5%
const RECENCY = 0.03; // times exp(-age / 30 days)

/** The least and most any memory's boosts can multiply its fused score by. */
export const BOOST_FACTOR_RANGE = {
  min: 1 - IMPORTANCE / 2 - FEEDBACK,
  max: 1 + IMPORTANCE / 2 + PINNED + FEEDBACK + RECENCY,
};

/**
 * Small multiplicative nudges applied after fusion (never before: they must reorder near-ties,
 * not outvote relevance). Importance ±5%, pinned +3%, feedback up to ±5%, recency up to +3%.
 */
export function boostsFor(row: MemoryRow, now: number): Boosts {
  const importance = IMPORTANCE * (row.importance - 0.5);
  const pinned = row.pinned ? PINNED : 0;
  const feedback = FEEDBACK * Math.tanh((row.helpfulCount - row.unhelpfulCount) / 3);
  const ageDays = Math.max(0, now - row.createdAt.getTime()) / DAY_MS;
  const recency = RECENCY * Math.exp(-ageDays / 30);
  return { importance, pinned, feedback, recency, factor: 1 + importance + pinned + feedback + recency };
}

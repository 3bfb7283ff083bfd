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

/**
 * Small multiplicative nudges applied after fusion (never before: they must reorder near-ties,
 * not outvote relevance). Importance ±5%, pinned +3%, feedback up to ±5%, recency up to +3%.
 */
export function boostsFor(row: MemoryRow, now: number): Boosts {
  const importance = 0.1 * (row.importance - 0.5);
  const pinned = row.pinned ? 0.03 : 0;
  const feedback = 0.05 * Math.tanh((row.helpfulCount - row.unhelpfulCount) / 3);
  const ageDays = Math.max(0, now - row.createdAt.getTime()) / DAY_MS;
  const recency = 0.03 * Math.exp(-ageDays / 30);
  return { importance, pinned, feedback, recency, factor: 1 + importance + pinned + feedback + recency };
}

import type { ArmHit } from './arms.ts';

export type ArmName = 'vector' | 'fts5' | 'hybrid' | 'graph';

export interface WeightedArm {
  name: ArmName;
  weight: number;
  hits: ArmHit[];
}

export interface ArmContribution {
  rank: number;
  signal: number;
  contribution: number;
}

export interface Fused {
  id: string;
  /** 0..1: the weighted sum of normalised signals divided by the weights' sum. */
  fused: number;
  arms: Partial<Record<ArmName, ArmContribution>>;
}

/**
 * Where an arm's signal starts to count: full text (BM25, 0 = no match) is scaled by the best
 * hit's score; cosine similarity of averaged word vectors is high for almost any pair of texts,
 * so it is scaled between the last and the best candidate the arm brought (the last keeps a
 * little, 0.05: it was found).
 */
function normaliser(arm: WeightedArm): (signal: number) => number {
  const top = arm.hits[0]?.signal ?? 0;
  if (arm.name === 'fts5' || arm.name === 'hybrid') return (s) => (top > 0 ? s / top : 0);
  const bottom = arm.hits.length > 1 ? (arm.hits.at(-1)?.signal ?? 0) : 0;
  return (s) => (top > bottom ? 0.05 + (0.95 * (s - bottom)) / (top - bottom) : 1);
}

/**
 * Weighted fusion of normalised scores (each arm's signal scaled to 0..1 as above), divided by
 * the weights' sum: a memory first in every arm scores 1, one found by a single arm at most that
 * arm's share. Scores, not ranks: reciprocal rank fusion gives rank 1 and rank 10 nearly the same
 * share (1/61 against 1/70), so the evidence a neighbour or a date adds swamped it.
 */
export function fuse(arms: WeightedArm[]): Fused[] {
  const total = arms.reduce((sum, a) => sum + a.weight, 0);
  const out = new Map<string, Fused>();
  for (const arm of arms) {
    const scale = normaliser(arm);
    arm.hits.forEach((hit, i) => {
      const rank = i + 1;
      const contribution = (arm.weight * scale(hit.signal)) / total;
      let f = out.get(hit.id);
      if (!f) {
        f = { id: hit.id, fused: 0, arms: {} };
        out.set(hit.id, f);
      }
      f.fused += contribution;
      f.arms[arm.name] = { rank, signal: hit.signal, contribution };
    });
  }
  return [...out.values()].sort((a, b) => b.fused - a.fused);
}

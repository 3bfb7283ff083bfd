import type { ArmHit } from './arms.ts';

export const RRF_K = 60;

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
  /** 0..1: the weighted RRF sum divided by the most any memory could get (first in every arm). */
  fused: number;
  arms: Partial<Record<ArmName, ArmContribution>>;
}

/**
 * Weighted reciprocal rank fusion, normalised to 0..1 before any boost or threshold: a raw RRF
 * sum tops out near 0.03, which would make `min_score` meaningless and let boosts swamp ranks.
 * A memory found first by every arm scores 1; one found by one arm scores at most its share.
 */
export function fuse(arms: WeightedArm[]): Fused[] {
  const best = arms.reduce((sum, a) => sum + a.weight / (RRF_K + 1), 0);
  const out = new Map<string, Fused>();
  for (const arm of arms) {
    arm.hits.forEach((hit, i) => {
      const rank = i + 1;
      const contribution = arm.weight / (RRF_K + rank) / best;
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

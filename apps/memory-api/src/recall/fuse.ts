import type { ArmHit } from './arms.ts';

export type ArmName = 'vector' | 'fts5' | 'hybrid' | 'graph';

export interface WeightedArm {
  name: ArmName;
  weight: number;
  hits: ArmHit[];
}

export interface ArmContribution {
  rank: number;
  /** The arm's raw signal: cosine similarity, Okapi BM25 score, or a blend. */
  signal: number;
  /** The signal on the arm's absolute 0..1 scale (see ArmHit.strength). */
  strength: number;
  contribution: number;
}

export interface Fused {
  id: string;
  /** 0..1: the weighted sum of the arms' strengths divided by the weights' sum. */
  fused: number;
  arms: Partial<Record<ArmName, ArmContribution>>;
}

/**
 * Weighted fusion of the arms' strengths (each 0..1 and comparable across queries: BM25 over the
 * query's ceiling, cosine above its floor), divided by the weights' sum: a memory that matches
 * every query word and is as close as vectors get scores 1, one found by a single arm at most that
 * arm's share. Scores, not ranks: reciprocal rank fusion gives rank 1 and rank 10 nearly the same
 * share (1/61 against 1/70), and a rank says nothing of whether anything matched at all.
 */
export function fuse(arms: WeightedArm[]): Fused[] {
  const total = arms.reduce((sum, a) => sum + a.weight, 0);
  const out = new Map<string, Fused>();
  for (const arm of arms) {
    arm.hits.forEach((hit, i) => {
      const rank = i + 1;
      const contribution = (arm.weight * hit.strength) / total;
      let f = out.get(hit.id);
      if (!f) {
        f = { id: hit.id, fused: 0, arms: {} };
        out.set(hit.id, f);
      }
      f.fused += contribution;
      f.arms[arm.name] = { rank, signal: hit.signal, strength: hit.strength, contribution };
    });
  }
  return [...out.values()].sort((a, b) => b.fused - a.fused);
}

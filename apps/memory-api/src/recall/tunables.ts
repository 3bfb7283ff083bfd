import { VECTOR_STRENGTH } from './arms.ts';
import { ARM_WEIGHTS, CANDIDATES, SESSION_SPREAD } from './recall.ts';
import { RERANK_DEPTH, RERANK_WEIGHTS, SCORE } from './rerank.ts';
import { SOFT_MATCH } from './soft-match.ts';
import { VECTOR_QUERY } from './vector-query.ts';

/** The recall weights a benchmark may vary (bench:locomo and bench:quality's tuning settings). */
export const RECALL_TUNABLES = {
  arms: ARM_WEIGHTS,
  rerank: RERANK_WEIGHTS,
  query: VECTOR_QUERY,
  cosine: VECTOR_STRENGTH,
  score: SCORE,
  soft: SOFT_MATCH,
  depth: RERANK_DEPTH,
  candidates: CANDIDATES,
  spread: SESSION_SPREAD,
} as const;

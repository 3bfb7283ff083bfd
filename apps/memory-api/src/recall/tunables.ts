import { ARM_WEIGHTS } from './recall.ts';
import { RERANK_WEIGHTS } from './rerank.ts';
import { VECTOR_QUERY } from './vector-query.ts';

/** The recall weights a benchmark may vary (bench:locomo and bench:quality's tuning settings). */
export const RECALL_TUNABLES = { arms: ARM_WEIGHTS, rerank: RERANK_WEIGHTS, query: VECTOR_QUERY } as const;

import { tokenize } from '@trove/embeddings';

/** Share of distinct words two texts have in common (Jaccard). */
export function wordOverlap(a: string, b: string): number {
  const x = new Set(tokenize(a));
  const y = new Set(tokenize(b));
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared);
}

/**
 * Word vectors put "the favourite colour is blue" and "... is green" above 0.95, so closeness of
 * meaning alone would swallow a changed fact. A near-duplicate must also share this much wording.
 */
export const DUPLICATE_MIN_WORD_OVERLAP = 0.8;

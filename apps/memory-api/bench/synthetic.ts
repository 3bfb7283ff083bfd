import { loadRetrievalSet } from './retrieval-set.ts';

/**
 * Synthetic memories for the speed benchmarks: 14 words drawn from the retrieval set's vocabulary,
 * so that full text and vectors see realistic words (and common ones match many rows, as in a real
 * store). The same seed gives the same sentences.
 */
export function sentenceMaker(seed: number): () => string {
  const { memories } = loadRetrievalSet();
  const vocab = [...new Set(memories.flatMap((m) => m.content.toLowerCase().match(/[a-z]{3,}/g) ?? []))];
  let state = seed;
  const random = () => {
    // Math.imul keeps the product exact: a plain float multiply loses low bits beyond 2^53 and the
    // sequence then cycles after ~16k draws, repeating sentences (exact ties at 100k memories).
    state = (Math.imul(state, 1_103_515_245) + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  return () => Array.from({ length: 14 }, () => vocab[Math.floor(random() * vocab.length)]).join(' ');
}

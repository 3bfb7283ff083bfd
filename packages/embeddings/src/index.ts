export { BruteForceIndex } from './brute-force-index.ts';
export { dot, type Embedder, normalize } from './embedder.ts';
export { buildCompactVectors, type CompactVectors, loadCompactVectors } from './glove/compact-vectors.ts';
export { GloveEmbedder } from './glove/glove-embedder.ts';
export { HashEmbedder } from './hash-embedder.ts';
export { HnswIndex, type HnswOptions } from './hnsw-index.ts';
export { tokenize } from './tokenize.ts';
export type { Neighbour, VectorIndex } from './vector-index.ts';

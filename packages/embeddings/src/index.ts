export { BACKENDS, type BackendName, type BackendOptions, type EmbeddingBackend, openBackend } from './backend.ts';
export { BruteForceIndex } from './brute-force-index.ts';
export { dot, type Embedder, type EmbedPurpose, normalize } from './embedder.ts';
export {
  decodeEmbedResponse,
  EMBEDDER_CODECS,
  encodeEmbedRequest,
  encodeEmbedResponse,
} from './embedder-codec.ts';
export { buildCompactVectors, type CompactVectors, loadCompactVectors } from './glove/compact-vectors.ts';
export { GloveEmbedder } from './glove/glove-embedder.ts';
export { GrpcEmbedder, type GrpcEmbedderOptions } from './grpc-embedder.ts';
export { HashEmbedder } from './hash-embedder.ts';
export { HnswIndex, type HnswOptions } from './hnsw-index.ts';
export { type OnnxConfig, onnxEnv, onnxOptions } from './onnx/config.ts';
export { type QdrantStoreOptions, QdrantVectorStore, qdrantFilter } from './qdrant-vector-store.ts';
export { tokenize } from './tokenize.ts';
export type { Neighbour, VectorIndex } from './vector-index.ts';
export {
  EmbeddedVectorStore,
  matchesVectorFilter,
  type VectorFilter,
  type VectorPayload,
  type VectorRecord,
  type VectorStore,
} from './vector-store.ts';

/**
 * Turns text into vectors. Backends: GloVe (real word vectors shipped on npm, offline), a hashing
 * embedder for tests, and later a gRPC client of the embedder service. Vectors are L2-normalised,
 * so cosine similarity is a dot product.
 */
/**
 * What a text is for: models trained with instructions (e5, bge, EmbeddingGemma) embed a question
 * and the text that answers it with different prefixes. Models without them ignore it.
 */
export type EmbedPurpose = 'query' | 'document';

export interface Embedder {
  /** Names model and version; stored beside each embedding so a change of model is detectable. */
  readonly model: string;
  readonly dimensions: number;
  /**
   * Whether embedding a single word gives a meaningful word vector: true where a text's vector is
   * built from its words' vectors (GloVe; hashing, whose words are independent), false for
   * transformer models, whose vector of a lone word out of context is not fit for comparing words
   * (memory-api's soft word match needs this to be true).
   */
  readonly wordVectors: boolean;
  /** One vector per text, in order; `purpose` defaults to document. */
  embed(texts: readonly string[], purpose?: EmbedPurpose): Promise<Float32Array[]>;
  /** For readiness, when the embedder is a remote dependency: rejects while it cannot serve. */
  check?(): Promise<void>;
  close?(): Promise<void>;
}

/** Scales `v` in place to unit length; a zero vector stays zero. */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] as number) * (v[i] as number);
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

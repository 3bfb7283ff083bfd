/**
 * Embeddings are stored in the row as raw float32 bytes (little-endian, as on every platform we
 * run on): the system Postgres has no pgvector, and the vector index is derived from these bytes.
 */
export function encodeEmbedding(vector: Float32Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(
    vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength),
  ) as Uint8Array<ArrayBuffer>;
}

export function decodeEmbedding(bytes: Uint8Array): Float32Array {
  // Copy first: the driver's buffer may not be 4-byte aligned.
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, copy.byteLength >> 2);
}

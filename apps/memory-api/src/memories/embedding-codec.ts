import type { SqlDriver } from '@trove/data';

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

/** A row's stored embedding and the model that made it. */
export type StoredEmbedding = { embedding: Uint8Array | null; embedding_model: string | null };

/** A row's stored vector when `model` made it; null when it has none of that model. */
export const storedVector = (r: StoredEmbedding, model: string): Float32Array | null =>
  r.embedding && r.embedding_model === model ? decodeEmbedding(r.embedding) : null;

/** A vector as the hex text `decode(..., 'hex')` stores (how statements pass embeddings). */
export const embeddingHex = (vector: Float32Array): string => Buffer.from(encodeEmbedding(vector)).toString('hex');

/** Stores vectors as rows' embeddings, made by `model`, in one statement. */
export async function saveEmbeddings(
  sql: SqlDriver,
  table: 'memories' | 'documents',
  rows: { id: string }[],
  vectors: Float32Array[],
  model: string,
): Promise<void> {
  await sql.query(
    `UPDATE ${table} t SET embedding = decode(v.hex, 'hex'), embedding_model = $3
       FROM unnest($1::uuid[], $2::text[]) AS v(id, hex) WHERE t.id = v.id`,
    [rows.map((r) => r.id), vectors.map(embeddingHex), model],
  );
}

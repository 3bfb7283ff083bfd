import { createHash } from 'node:crypto';
import { type Embedder, normalize } from './embedder.ts';
import { tokenize } from './tokenize.ts';

/**
 * A small deterministic embedder for tests: each token adds ±1 at positions picked by hashing it,
 * so texts that share words are similar and the same text always gives the same vector. It knows
 * nothing of meaning (synonyms are unrelated), which is what a unit test wants.
 */
export class HashEmbedder implements Embedder {
  readonly model: string;
  /** Each word hashes to its own fixed vector, independent of context. */
  readonly wordVectors = true;
  constructor(readonly dimensions = 64) {
    this.model = `hash-${dimensions}`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  private embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dimensions);
    for (const token of tokenize(text)) addHashedWord(v, token);
    return normalize(v);
  }
}

/**
 * Adds a word's hashed vector to `v`: ±1 at three positions picked by the word's SHA-1 (the onnx
 * test model's word embeddings are these vectors too).
 */
export function addHashedWord(v: Float32Array, word: string): void {
  const h = createHash('sha1').update(word).digest();
  for (let k = 0; k < 3; k++) {
    const position = h.readUInt32LE(k * 4) % v.length;
    v[position] = (v[position] as number) + ((h[12 + k] as number) & 1 ? 1 : -1);
  }
}

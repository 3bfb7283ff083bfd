import { dot, tokenize } from '@trove/embeddings';
import type { MemoryStore } from '../memories/memory-store.ts';
import { idf } from './bm25.ts';
import type { TermStats } from './term-stats.ts';
import { lexemesOf } from './vector-query.ts';

/**
 * How closely a memory's words meet the question's, word by word: each question word (stop words
 * aside) takes its best match among the memory's words (1 the same word, `stem` the same stem,
 * else the cosine of their word vectors above `bar`, scaled to 0..1), weighted by its idf in the
 * namespace. 0..1 and comparable across queries: "destress" meets "de-stress", "kids" meets
 * "children", and a name the namespace has never seen meets nothing. Tuned with bench:locomo.
 */
export const SOFT_MATCH = { stem: 0.9, bar: 0.55 };

/**
 * Whether the embedder's vectors for single words mean something: word-vector models (GloVe) and
 * the hashing embedder of tests (a word's vector is its own, so it meets only itself); a sentence
 * model (onnx) is not asked for single words.
 */
export const hasWordVectors = (store: MemoryStore) => /^(glove|hash)/.test(store.embedder.model);

const wordVectors = new WeakMap<MemoryStore, Map<string, Float32Array>>();
const WORD_VECTORS_MAX = 100_000;

async function vectorsOf(store: MemoryStore, words: string[]): Promise<Map<string, Float32Array>> {
  let known = wordVectors.get(store);
  if (!known) {
    known = new Map();
    wordVectors.set(store, known);
  }
  const missing = words.filter((w) => !known.has(w));
  if (missing.length > 0) {
    const vectors = await store.embedder.embed(missing);
    if (known.size + missing.length > WORD_VECTORS_MAX) known.clear();
    missing.forEach((w, i) => {
      known.set(w, vectors[i] as Float32Array);
    });
  }
  return known;
}

interface Word {
  surface: string;
  lexeme: string;
}

async function contentWords(store: MemoryStore, text: string): Promise<Word[]> {
  const surfaces = [...new Set(tokenize(text))];
  const lexemes = await lexemesOf(store, surfaces);
  return surfaces.map((surface, i) => ({ surface, lexeme: lexemes[i] ?? '' })).filter((w) => w.lexeme !== '');
}

/** The soft coverage of `query` by each of `contents` (id to text), 0..1. */
export async function softMatch(
  store: MemoryStore,
  query: string,
  contents: Map<string, string>,
  stats: TermStats,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const asked = await contentWords(store, query);
  const weights = asked.map((w) => idf(stats, w.lexeme));
  const total = weights.reduce((a, b) => a + b, 0);
  if (total === 0) return out;
  const docs = new Map<string, Word[]>();
  for (const [id, text] of contents) docs.set(id, await contentWords(store, text));
  const all = new Set([...asked, ...[...docs.values()].flat()].map((w) => w.surface));
  const vectors = await vectorsOf(store, [...all]);
  const { stem, bar } = SOFT_MATCH;
  for (const [id, words] of docs) {
    let sum = 0;
    asked.forEach((q, i) => {
      let best = 0;
      const qv = vectors.get(q.surface) as Float32Array;
      for (const w of words) {
        if (w.surface === q.surface) {
          best = 1;
          break;
        }
        const s = w.lexeme === q.lexeme ? stem : (dot(qv, vectors.get(w.surface) as Float32Array) - bar) / (1 - bar);
        if (s > best) best = s;
      }
      sum += (weights[i] as number) * best;
    });
    out.set(id, sum / total);
  }
  return out;
}

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
 * Without word vectors (a sentence model) only the same word and the same stem count, so the
 * measure, and with it the scores strict filters on, keeps its scale.
 */
export const SOFT_MATCH = { stem: 0.9, bar: 0.55 };

/**
 * Whether the embedder's vectors for single words mean something (the embedder says so: GloVe,
 * and the hashing embedder of tests, whose word's vector is its own, so it meets only itself; a
 * sentence model is not asked for single words). Over gRPC the embedder service reports it.
 */
export const hasWordVectors = (store: MemoryStore) => store.embedder.wordVectors;

const wordVectors = new WeakMap<MemoryStore, Map<string, Float32Array>>();
const WORD_VECTORS_MAX = 100_000;

/** The vectors of `words`, from the embedder for those not asked for before. */
async function vectorsOf(store: MemoryStore, words: string[]): Promise<Map<string, Float32Array>> {
  let known = wordVectors.get(store);
  if (!known) {
    known = new Map();
    wordVectors.set(store, known);
  }
  const out = new Map<string, Float32Array>();
  const missing: string[] = [];
  for (const w of words) {
    const v = known.get(w);
    if (v) out.set(w, v);
    else missing.push(w);
  }
  if (missing.length > 0) {
    const vectors = await store.embedder.embed(missing);
    if (known.size + missing.length > WORD_VECTORS_MAX) known.clear();
    missing.forEach((w, i) => {
      const v = vectors[i] as Float32Array;
      known.set(w, v);
      out.set(w, v);
    });
  }
  return out;
}

interface Word {
  surface: string;
  lexeme: string;
}

/** Each text's distinct words with their lexemes, stop words left out: one lexeme lookup for all. */
async function wordsOf(store: MemoryStore, texts: string[]): Promise<Word[][]> {
  const surfaces = texts.map((t) => [...new Set(tokenize(t))]);
  const all = [...new Set(surfaces.flat())];
  const lexemes = await lexemesOf(store, all);
  const lexemeOf = new Map(all.map((w, i) => [w, lexemes[i] ?? '']));
  return surfaces.map((words) =>
    words.map((surface) => ({ surface, lexeme: lexemeOf.get(surface) ?? '' })).filter((w) => w.lexeme !== ''),
  );
}

/** The soft coverage of `query` by each of `contents` (id to text), 0..1. */
export async function softMatch(
  store: MemoryStore,
  query: string,
  contents: Map<string, string>,
  stats: TermStats,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const ids = [...contents.keys()];
  const [asked = [], ...texts] = await wordsOf(store, [query, ...contents.values()]);
  const weights = asked.map((w) => idf(stats, w.lexeme));
  const total = weights.reduce((a, b) => a + b, 0);
  if (total === 0) return out;
  const docs = new Map(ids.map((id, i) => [id, texts[i] ?? []]));
  const { stem, bar } = SOFT_MATCH;
  // Word vectors only where the embedder has them (not asked for otherwise); looked up once per
  // word, not once per pair compared.
  const vectors = hasWordVectors(store)
    ? await vectorsOf(store, [...new Set([...asked, ...[...docs.values()].flat()].map((w) => w.surface))])
    : null;
  const vectorOf = (w: Word) => vectors?.get(w.surface);
  const askedVectors = asked.map(vectorOf);
  for (const [id, words] of docs) {
    const wordVectors = words.map(vectorOf);
    let sum = 0;
    for (let i = 0; i < asked.length; i++) {
      const q = asked[i] as Word;
      const qv = askedVectors[i];
      let best = 0;
      for (let j = 0; j < words.length; j++) {
        const w = words[j] as Word;
        if (w.surface === q.surface) {
          best = 1;
          break;
        }
        // The same stem, else how close two different words are: their vectors' cosine above the bar.
        const wv = wordVectors[j];
        const s = w.lexeme === q.lexeme ? stem : qv && wv ? (dot(qv, wv) - bar) / (1 - bar) : 0;
        if (s > best) best = s;
      }
      sum += (weights[i] as number) * best;
    }
    out.set(id, sum / total);
  }
  return out;
}

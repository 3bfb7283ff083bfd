import { normalize, tokenize } from '@trove/embeddings';
import type { MemoryStore } from '../memories/memory-store.ts';
import { hasWordVectors } from './soft-match.ts';
import type { TermStats } from './term-stats.ts';

/**
 * How the question's vector is made: `corpus` 1 weighs each word by a / (a + p), p the share of
 * the namespace's memories holding it (smooth inverse frequency, from the stored memories rather
 * than a fixed list), so a speaker's name in half of a conversation's turns or a word every
 * memory shares barely moves the question's vector; 0 embeds the question whole. Tuned on the
 * tuning half of bench:quality. Built from the embedder's own vectors for single words, so it
 * needs nothing of the embedder beyond `embed(texts)`.
 */
export const VECTOR_QUERY = { corpus: 1, a: 0.02 };

/** Each word's lexeme as Postgres's English configuration makes it; '' for a stop word. */
const LEXEMES_SQL = `SELECT array_agg(coalesce((tsvector_to_array(to_tsvector('english', w)))[1], '') ORDER BY i) AS lexemes
  FROM unnest($1::text[]) WITH ORDINALITY AS u(w, i)`;

/**
 * Lexemes already asked for: Postgres's English stemming of a word never changes, and questions
 * reuse words, so most questions need no round trip for them. Emptied when it grows past the cap.
 */
const knownLexemes = new Map<string, string>();
const KNOWN_LEXEMES_MAX = 50_000;

export async function lexemesOf(store: MemoryStore, words: string[]): Promise<string[]> {
  const found = new Map(words.flatMap((w) => (knownLexemes.has(w) ? [[w, knownLexemes.get(w) as string]] : [])));
  const unknown = words.filter((w) => !found.has(w));
  if (unknown.length > 0) {
    const [row] = await store.db.sql.prepare('memory_word_lexemes', LEXEMES_SQL)<{ lexemes: string[] }>([unknown]);
    // Emptied before the new ones go in, never between reading the known ones and answering.
    if (knownLexemes.size + unknown.length > KNOWN_LEXEMES_MAX) knownLexemes.clear();
    unknown.forEach((w, i) => {
      const lexeme = row?.lexemes[i] ?? '';
      knownLexemes.set(w, lexeme);
      found.set(w, lexeme);
    });
  }
  return words.map((w) => found.get(w) ?? '');
}

export async function questionVector(store: MemoryStore, text: string, stats: TermStats | null): Promise<Float32Array> {
  // A sentence model (onnx) embeds the question whole, as a query (e5, bge and EmbeddingGemma
  // prefix it): its vectors for single words are not what it was trained to compare.
  if (!hasWordVectors(store)) return (await store.embedder.embed([text], 'query'))[0] as Float32Array;
  const words = [...new Set(tokenize(text))];
  if (!stats || VECTOR_QUERY.corpus === 0 || words.length < 2 || stats.docs === 0) return store.embedOne(text);
  const lexemes = await lexemesOf(store, words);
  const vectors = await store.embedder.embed(words);
  const sum = new Float32Array(store.embedder.dimensions);
  words.forEach((_, i) => {
    // A stop word counts as held by every memory. The share is smoothed as if one more memory held
    // every word: a word no memory holds still leads a large namespace's question (paraphrases
    // reach memories through it), but in a namespace of a few memories it cannot outweigh every
    // word those memories share.
    const lexeme = lexemes[i] ?? '';
    const p = lexeme === '' ? 1 : ((stats.df.get(lexeme) ?? 0) + 1) / (stats.docs + 1);
    const weight = VECTOR_QUERY.a / (VECTOR_QUERY.a + p);
    const v = vectors[i] as Float32Array;
    for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) + weight * (v[d] as number);
  });
  return normalize(sum);
}

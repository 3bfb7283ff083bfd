import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BruteForceIndex, HnswIndex, normalize, type VectorIndex } from '../src/index.ts';

/** Deterministic pseudo-random unit vectors (a small LCG), so failures reproduce. */
function randomVectors(count: number, dims: number, seed = 7): Float32Array[] {
  let state = seed;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  return Array.from({ length: count }, () => normalize(Float32Array.from({ length: dims }, next)));
}

const unit = (...xs: number[]) => normalize(Float32Array.from(xs));

describe.each([
  ['brute force', (dims: number) => new BruteForceIndex(dims)],
  ['hnsw', (dims: number) => new HnswIndex(dims)],
] as const)('%s index', (_name, make: (dims: number) => VectorIndex) => {
  it('finds the most similar vectors first, with cosine scores', () => {
    const index = make(3);
    index.upsert('x', unit(1, 0, 0));
    index.upsert('y', unit(0, 1, 0));
    index.upsert('xy', unit(1, 1, 0));
    const hits = index.search(unit(1, 0.2, 0), 3);
    expect(hits.map((h) => h.id)).toEqual(['x', 'xy', 'y']);
    expect(hits[0]?.score).toBeCloseTo(1 / Math.sqrt(1.04), 5);
    expect(index.search(unit(1, 0, 0), 10)).toHaveLength(3);
  });

  it('replaces, removes and filters', () => {
    const index = make(3);
    index.upsert('a', unit(1, 0, 0));
    index.upsert('b', unit(0, 1, 0));
    index.upsert('a', unit(0, 0, 1));
    expect(index.size).toBe(2);
    expect(index.search(unit(0, 0, 1), 1)[0]).toMatchObject({ id: 'a' });
    expect(index.remove('b')).toBe(true);
    expect(index.remove('b')).toBe(false);
    expect(index.has('b')).toBe(false);
    expect(index.search(unit(0, 1, 0), 5).map((h) => h.id)).toEqual(['a']);
    index.upsert('c', unit(0, 1, 0));
    expect(index.search(unit(0, 1, 0), 5, (id) => id !== 'c').map((h) => h.id)).toEqual(['a']);
  });

  it('refuses a vector of the wrong size', () => {
    const index = make(3);
    expect(() => index.upsert('a', unit(1, 0))).toThrow('vector has 2 dimensions; the index holds 3');
    expect(() => index.search(unit(1, 0, 0, 0), 1)).toThrow(RangeError);
  });

  it('grows past its first capacity and keeps answering exactly on distinct points', () => {
    const index = make(16);
    const vectors = randomVectors(3000, 16);
    for (const [i, v] of vectors.entries()) index.upsert(`v${i}`, v);
    expect(index.size).toBe(3000);
    for (const i of [0, 1234, 2999]) expect(index.search(vectors[i] as Float32Array, 1)[0]?.id).toBe(`v${i}`);
  });
});

describe('hnsw against exact search', () => {
  it('has recall@10 of at least 0.95 on 5,000 clustered 100-d vectors', () => {
    // Text embeddings cluster by topic; uniform noise in 100-d would be a needlessly hard case.
    const centres = randomVectors(50, 100, 3);
    const noise = randomVectors(5050, 100, 11);
    const near = (c: Float32Array, n: Float32Array) => normalize(c.map((x, d) => x + 0.6 * (n[d] as number)));
    const data = noise.slice(0, 5000).map((n, i) => near(centres[i % 50] as Float32Array, n));
    const queries = noise.slice(5000).map((n, i) => near(centres[(i * 7) % 50] as Float32Array, n));
    const exact = new BruteForceIndex(100);
    const approx = new HnswIndex(100);
    data.forEach((v, i) => {
      exact.upsert(`${i}`, v);
      approx.upsert(`${i}`, v);
    });
    let found = 0;
    for (const q of queries) {
      const truth = new Set(exact.search(q, 10).map((h) => h.id));
      found += approx.search(q, 10).filter((h) => truth.has(h.id)).length;
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });
});

describe('HnswIndex saved and loaded', () => {
  it('answers after load as before save, replaced and removed vectors included, and grows from an empty graph', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hnsw-'));
    try {
      const index = new HnswIndex(3);
      index.upsert('a', unit(1, 0, 0));
      index.upsert('b', unit(0, 1, 0));
      index.upsert('a', unit(0, 0, 1)); // a's first label is now deleted
      index.upsert('c', unit(1, 1, 0));
      index.remove('c');
      const labels = index.save(join(dir, 'g'));
      expect(labels).toEqual([null, 'b', 'a', null]);
      const loaded = HnswIndex.load(join(dir, 'g'), 3, labels);
      expect([...loaded.ids()].sort()).toEqual(['a', 'b']);
      expect(loaded.search(unit(0, 0, 1), 5)).toEqual(index.search(unit(0, 0, 1), 5));
      loaded.upsert('d', unit(1, 0, 0));
      expect(loaded.search(unit(1, 0, 0), 1)[0]).toMatchObject({ id: 'd' });
      expect(() => HnswIndex.load(join(dir, 'g'), 3, labels.slice(1))).toThrow('holds 4 vectors for 3 labels');

      const empty = HnswIndex.load(join(dir, 'e'), 3, new HnswIndex(3).save(join(dir, 'e')));
      for (let i = 0; i < 1100; i++) empty.upsert(`v${i}`, unit(1, i, 0));
      expect(empty.size).toBe(1100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

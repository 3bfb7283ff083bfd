import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCompactVectors, loadCompactVectors } from '../src/glove/compact-vectors.ts';
import { scanWinkJson } from '../src/glove/wink-json.ts';

/** What the scanner must agree with: JSON.parse of the whole file. */
function scanAll(text: string) {
  const seen: Record<string, number[]> = {};
  const header = scanWinkJson(Buffer.from(text, 'utf8'), () => (word, values, length) => {
    seen[word] = Array.from(values.subarray(0, length));
  });
  return { ...header, vectors: seen };
}

describe('scanWinkJson (the GloVe package JSON read from its bytes)', () => {
  it('reads words and numbers exactly as JSON.parse does', () => {
    const numbers = [
      0, -0.085806, 2.95153011, 341478, 1e-5, -2.5e3, 1.7976931348623157e308, 5e-324, 0.1, 123456789.12345678,
      -0.000001234, 9007199254740992, 4.35e-7, 1e22, 1e23,
    ];
    const source = {
      precision: 8,
      dimensions: 3,
      words: ['the', '"', 'naïve', 'a\\b', 'line\nbreak', '😀', 'gone'],
      vectors: {
        the: numbers.slice(0, 5),
        '"': numbers.slice(5, 10),
        naïve: numbers.slice(10, 15),
        'a\\b': [1, 2, 3],
        'line\nbreak': [3, 2, 1],
        '😀': [0.5, -0.5, 0.25],
      },
      unkVector: [0, 0, 0],
    };
    const compact = JSON.stringify(source);
    const spaced = JSON.stringify(source, null, 2).replace(/,/g, ' ,\r\n\t');
    for (const text of [compact, spaced]) {
      const scanned = scanAll(text);
      expect(scanned.dimensions).toBe(3);
      expect(scanned.words).toEqual(source.words);
      // Object.is, not ==: the same doubles bit for bit.
      expect(scanned.vectors).toStrictEqual(JSON.parse(text).vectors);
    }
  });

  it('reads numbers written with exponents and long mantissas as JSON.parse does', () => {
    const texts = [
      '1E+2',
      '-1.5e-10',
      '0.30000000000000004',
      '12345678901234567890',
      '1e-30',
      '2.2250738585072014E-308',
    ];
    const scanned = scanAll(`{"dimensions":1,"words":["x"],"vectors":{"x":[${texts.join(',')}]}}`);
    expect(scanned.vectors.x).toStrictEqual(texts.map((t) => JSON.parse(t) as number));
  });

  it('names what it expected where the file is not what it should be', () => {
    const bad = (text: string) => () => scanAll(text);
    expect(bad('{"dimensions":1,"words":["x"],"vectors":{"x":[1,,2]}}')).toThrow(/expected a number/);
    expect(bad('{"dimensions":1,"words":["x"],"vectors":{"x":[1 2]}}')).toThrow(/expected , or \]/);
    expect(bad('{"dimensions":1,"words":["x"],"vectors":{"x":[1,2]')).toThrow(/expected/);
    expect(bad('{"vectors":{},"dimensions":1,"words":[]}')).toThrow(/"dimensions" and "words" must come before/);
    expect(bad('{"dimensions":1,"words":[]}')).toThrow(/needs "dimensions", "words" and "vectors"/);
  });
});

describe('buildCompactVectors', () => {
  it('keeps the words that have a vector and no line break, in frequency order, quantised per word', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'compact-vectors-'));
    const source = join(dir, 'source.json');
    await writeFile(
      source,
      JSON.stringify({
        dimensions: 2,
        words: ['the', 'cat', 'line\nbreak', 'novector', 'dog'],
        // A vector whose word is not in the list is ignored; extra numbers (norm, index) too.
        vectors: {
          dog: [-0.5, 0.25, 9, 4],
          'line\nbreak': [1, 1, 0, 2],
          the: [1, -2, 0, 0],
          cat: [0, 0, 0, 1],
          stray: [1, 1],
        },
      }),
    );
    const target = join(dir, 'compact.bin');
    await buildCompactVectors(source, target);
    const table = await loadCompactVectors(target);
    expect([...table.ranks]).toEqual([
      ['the', 0],
      ['cat', 1],
      ['dog', 2],
    ]);
    expect(table.dims).toBe(2);
    const vector = (rank: number) =>
      Array.from(table.vectors.subarray(rank * 2, rank * 2 + 2), (v) => v * (table.scales[rank] as number));
    // int8 per word: the largest value is exact, the others within half a step (max / 127 / 2).
    expect(vector(0)[0]).toBeCloseTo(1, 1);
    expect(vector(0)[1]).toBeCloseTo(-2, 5);
    expect(vector(1)).toEqual([0, 0]);
    expect(vector(2)[0]).toBeCloseTo(-0.5, 5);
    expect(vector(2)[1]).toBeCloseTo(0.25, 2);
  });
});

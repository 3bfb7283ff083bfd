import type { PathCommand } from './types.ts';

/**
 * SVG path data written as ASCII bytes into one growing buffer and decoded once: a traced photo
 * has a few hundred thousand numbers, and a string per number (then one concatenation each) cost
 * more than tracing some of its layers. The text is exactly what the string version wrote.
 */
export class PathText {
  private bytes = new Uint8Array(1 << 16);
  length = 0;
  // Separator state of the number list: after a command letter no space is needed.
  private lastWasCommand = true;
  private lastHasDot = false;

  /** Appends plain ASCII text (element markup); a number after it needs no separator. */
  text(value: string): void {
    this.reserve(value.length);
    for (let k = 0; k < value.length; k++) this.bytes[this.length++] = value.charCodeAt(k);
    this.lastWasCommand = true;
  }

  /** The text so far. */
  toString(): string {
    return LATIN1.decode(this.bytes.subarray(0, this.length));
  }

  clear(): void {
    this.length = 0;
    this.lastWasCommand = true;
  }

  command(letter: number): void {
    this.reserve(1);
    this.bytes[this.length++] = letter;
    this.lastWasCommand = true;
  }

  /**
   * A number given as integer units of 10^-precision, shortest form ("0.5" → ".5", "-0.5" → "-.5",
   * trailing zeros dropped), with the fewest separators: none before "-", none before "." after a
   * number that has a decimal point.
   */
  number(units: number, precision: number): void {
    if (!(units > -1e15 && units < 1e15)) {
      this.numberText(largeNumber(units, precision));
      return;
    }
    splitUnits(units, precision);
    const { negative, whole, digits } = split;
    let fraction = split.fraction;
    const startsWithDot = whole === 0 && digits > 0 && !negative;
    if (!this.lastWasCommand && !(negative || (startsWithDot && this.lastHasDot))) this.push(32);
    this.reserve(digits + 18);
    if (negative) this.bytes[this.length++] = 45;
    if (whole !== 0 || digits === 0) this.integer(whole);
    if (digits > 0) {
      this.bytes[this.length++] = 46;
      const end = this.length + digits;
      for (let k = end - 1; k >= this.length; k--) {
        this.bytes[k] = 48 + (fraction % 10);
        fraction = Math.floor(fraction / 10);
      }
      this.length = end;
    }
    this.lastHasDot = digits > 0;
    this.lastWasCommand = false;
  }

  private numberText(value: string): void {
    if (!this.lastWasCommand && !(value[0] === '-' || (value[0] === '.' && this.lastHasDot))) this.push(32);
    this.reserve(value.length);
    for (let k = 0; k < value.length; k++) this.bytes[this.length++] = value.charCodeAt(k);
    this.lastHasDot = value.includes('.');
    this.lastWasCommand = false;
  }

  private integer(value: number): void {
    let digits = 1;
    for (let v = value; v >= 10; v = Math.floor(v / 10)) digits++;
    const end = this.length + digits;
    for (let k = end - 1; k >= this.length; k--) {
      this.bytes[k] = 48 + (value % 10);
      value = Math.floor(value / 10);
    }
    this.length = end;
  }

  private push(byte: number): void {
    this.reserve(1);
    this.bytes[this.length++] = byte;
  }

  private reserve(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.length + more, 2 * this.bytes.length));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
  }
}

const LATIN1 = new TextDecoder('latin1');
const POWERS = [1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7, 1e8];

/** What `splitUnits` found; one object reused, as numbers are written by the hundred thousand. */
const split = { negative: false, whole: 0, fraction: 0, digits: 0 };

/**
 * Units as sign, whole part, and the fraction's digits without trailing zeros (fraction as an
 * integer of `digits` digits), into `split`.
 */
function splitUnits(units: number, precision: number): void {
  const negative = units < 0;
  const magnitude = negative ? -units : units;
  const scale = POWERS[precision]!;
  const whole = Math.floor(magnitude / scale);
  let fraction = magnitude - whole * scale;
  let digits = precision;
  if (fraction !== 0) {
    while (fraction % 10 === 0) {
      fraction /= 10;
      digits--;
    }
  } else digits = 0;
  split.negative = negative;
  split.whole = whole;
  split.fraction = fraction;
  split.digits = digits;
}

/** Characters of an integer as `PathText.number` writes it (the sign included). */
export function printedInteger(value: number): number {
  let length = value < 0 ? 2 : 1;
  for (let v = value < 0 ? -value : value; v >= 10; v = Math.floor(v / 10)) length++;
  return length;
}

/** Characters `PathText.number` writes for these units (the sign included). */
export function printedUnits(units: number, precision: number): number {
  if (!(units > -1e15 && units < 1e15)) return largeNumber(units, precision).length;
  splitUnits(units, precision);
  const { negative, whole, digits } = split;
  let length = negative ? 1 : 0;
  if (whole !== 0 || digits === 0) {
    length++;
    for (let v = whole; v >= 10; v = Math.floor(v / 10)) length++;
  }
  return digits > 0 ? length + 1 + digits : length;
}

/** The general form, for magnitudes where units lose integer precision (see svg.ts formatNumber). */
function largeNumber(units: number, precision: number): string {
  return shortDecimal(units / POWERS[precision]!, precision);
}

/**
 * A value already rounded to `precision` decimals, as SVG path data wants it: the shortest
 * round-trip form without a leading zero (toFixed where that form has an exponent).
 */
export function shortDecimal(value: number, precision: number): string {
  if (Number.isInteger(value)) return String(value); // String(-0) is "0"
  let text = String(value);
  if (text.includes('e')) {
    text = value.toFixed(precision).replace(/\.?0+$/, '');
    if (text === '-0' || text === '0') return '0';
  }
  if (text.startsWith('0.')) return text.slice(1);
  if (text.startsWith('-0.')) return `-${text.slice(2)}`;
  return text;
}

const LETTER_M = 77;
const LETTER_m = 109;
const LETTER_h = 104;
const LETTER_v = 118;
const LETTER_l = 108;
const LETTER_c = 99;
const LETTER_z = 122;

/**
 * A move-to given in units both ways: absolute when it is the path's first command or that is
 * shorter, else relative.
 */
function writeMove(
  out: PathText,
  absX: number,
  absY: number,
  relX: number,
  relY: number,
  first: boolean,
  precision: number,
): void {
  const relative =
    !first &&
    printedUnits(relX, precision) + printedUnits(relY, precision) <
      printedUnits(absX, precision) + printedUnits(absY, precision);
  out.command(relative ? LETTER_m : LETTER_M);
  out.number(relative ? relX : absX, precision);
  out.number(relative ? relY : absY, precision);
}

/**
 * Appends the 1-px runs `runs` holds (first and last pixel, four numbers each), in `order`, as
 * writePathData writes the same commands (a move to the first pixel's centre, then "z", "h" or
 * "v" to the last's), without making them: a screenshot has thousands (see svg.ts splitRuns).
 */
export function writeRunData(
  out: PathText,
  runs: Int32Array,
  order: Int32Array,
  count: number,
  precision: number,
): void {
  const scale = POWERS[precision]!;
  const half = scale / 2;
  // The current point, in units.
  let x = 0;
  let y = 0;
  for (let n = 0; n < count; n++) {
    const i = order[n]!;
    const startX = runs[4 * i]! * scale + half;
    const startY = runs[4 * i + 1]! * scale + half;
    const endX = runs[4 * i + 2]! * scale + half;
    const endY = runs[4 * i + 3]! * scale + half;
    writeMove(out, startX, startY, startX - x, startY - y, n === 0, precision);
    x = startX;
    y = startY;
    if (endX === startX && endY === startY) out.command(LETTER_z);
    else if (endY === startY) {
      out.command(LETTER_h);
      out.number(endX - startX, precision);
      x = endX;
    } else {
      out.command(LETTER_v);
      out.number(endY - startY, precision);
      y = endY;
    }
  }
}

/**
 * Appends SVG path data for `commands`: absolute first move-to, relative everything else (small
 * numbers are shorter), "h"/"v" for axis-aligned lines, repeated letters omitted. Later sub-paths
 * move relative to where the previous one closed when that is shorter. Relative offsets come from
 * the rounded absolute coordinates, so nothing drifts.
 */
export function writePathData(out: PathText, commands: readonly PathCommand[], precision: number): void {
  const scale = POWERS[precision]!;
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  let last = 0;
  for (const c of commands) {
    switch (c[0]) {
      case 'M': {
        const absX = Math.round(c[1] * scale);
        const absY = Math.round(c[2] * scale);
        const relX = Math.round((c[1] - x) * scale);
        const relY = Math.round((c[2] - y) * scale);
        writeMove(out, absX, absY, relX, relY, last === 0, precision);
        last = LETTER_m;
        x = startX = c[1];
        y = startY = c[2];
        break;
      }
      case 'L': {
        let letter: number;
        if (c[2] === y && c[1] !== x) letter = LETTER_h;
        else if (c[1] === x) letter = LETTER_v;
        else letter = LETTER_l;
        // Repeated commands may omit their letter (except after a move, where it would mean "line").
        if (letter !== last) out.command(letter);
        last = letter;
        if (letter !== LETTER_v) out.number(Math.round((c[1] - x) * scale), precision);
        if (letter !== LETTER_h) out.number(Math.round((c[2] - y) * scale), precision);
        x = c[1];
        y = c[2];
        break;
      }
      case 'C':
        if (last !== LETTER_c) out.command(LETTER_c);
        last = LETTER_c;
        out.number(Math.round((c[1] - x) * scale), precision);
        out.number(Math.round((c[2] - y) * scale), precision);
        out.number(Math.round((c[3] - x) * scale), precision);
        out.number(Math.round((c[4] - y) * scale), precision);
        out.number(Math.round((c[5] - x) * scale), precision);
        out.number(Math.round((c[6] - y) * scale), precision);
        x = c[5];
        y = c[6];
        break;
      case 'Z':
        out.command(LETTER_z);
        last = LETTER_z;
        x = startX;
        y = startY;
        break;
    }
  }
}

import type { PathCommand, RgbaColor, VectorPath } from './types.ts';

/**
 * Shortest plain decimal for a value rounded to `precision` decimals: trailing zeros and a leading
 * zero dropped ("0.5" → ".5", "-0.5" → "-.5"). Built from the integer of scaled units (the same
 * digits as the shortest round-trip form of the rounded value, while that integer has at most 15
 * digits), which is several times faster than formatting the double: an SVG of a photo has a few
 * hundred thousand numbers.
 */
export function formatNumber(raw: number, precision: number): string {
  const scale = 10 ** precision;
  const units = Math.round(raw * scale);
  if (units === 0) return '0'; // also -0
  const magnitude = units < 0 ? -units : units;
  if (magnitude >= 1e15) return formatLarge(raw, precision);
  const sign = units < 0 ? '-' : '';
  const whole = Math.floor(magnitude / scale);
  let fraction = magnitude - whole * scale;
  if (fraction === 0) return sign + whole;
  let digits = precision;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  return `${sign}${whole === 0 ? '' : whole}.${String(fraction).padStart(digits, '0')}`;
}

/** The general form, for magnitudes where scaled units lose integer precision. */
function formatLarge(raw: number, precision: number): string {
  const scale = 10 ** precision;
  const value = Math.round(raw * scale) / scale;
  if (Number.isInteger(value)) return String(value); // String(-0) is "0"
  // A value rounded to at most 8 decimals prints as that decimal (shortest round-trip form),
  // except in exponent form for tiny magnitudes: fall back to toFixed there.
  let text = String(value);
  if (text.includes('e')) {
    text = value.toFixed(precision).replace(/\.?0+$/, '');
    if (text === '-0' || text === '0') return '0';
  }
  if (text.startsWith('0.')) return text.slice(1);
  if (text.startsWith('-0.')) return `-${text.slice(2)}`;
  return text;
}

/** Appends numbers with the fewest separators: none before "-", none before "." after a decimal. */
class NumberList {
  text = '';
  private lastHasDot = false;
  private lastWasCommand = true;

  command(letter: string): void {
    this.text += letter;
    this.lastWasCommand = true;
  }

  number(value: string): void {
    if (!this.lastWasCommand && !(value[0] === '-' || (value[0] === '.' && this.lastHasDot))) this.text += ' ';
    this.text += value;
    this.lastHasDot = value.includes('.');
    this.lastWasCommand = false;
  }
}

/**
 * SVG path data: absolute first move-to, relative everything else (small numbers are shorter), "h"/"v"
 * for axis-aligned lines. Relative offsets come from the rounded absolute coordinates, so nothing drifts.
 */
export function pathData(commands: readonly PathCommand[], precision: number): string {
  const out = new NumberList();
  const scale = 10 ** precision;
  const rel = (to: number, from: number): string => formatNumber(Math.round((to - from) * scale) / scale, precision);
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  let last = '';
  const emit = (letter: string): void => {
    // Repeated commands may omit their letter (except after a move, where it would mean "line").
    if (letter !== last || letter === 'm') out.command(letter);
    last = letter;
  };
  for (const c of commands) {
    switch (c[0]) {
      case 'M':
        // Later sub-paths move relative to where the previous one closed when that is shorter.
        {
          const absX = formatNumber(c[1], precision);
          const absY = formatNumber(c[2], precision);
          const relX = rel(c[1], x);
          const relY = rel(c[2], y);
          const relative = last !== '' && relX.length + relY.length < absX.length + absY.length;
          out.command(relative ? 'm' : 'M');
          out.number(relative ? relX : absX);
          out.number(relative ? relY : absY);
        }
        last = 'm';
        x = startX = c[1];
        y = startY = c[2];
        break;
      case 'L':
        if (c[2] === y && c[1] !== x) {
          emit('h');
          out.number(rel(c[1], x));
        } else if (c[1] === x) {
          emit('v');
          out.number(rel(c[2], y));
        } else {
          emit('l');
          out.number(rel(c[1], x));
          out.number(rel(c[2], y));
        }
        x = c[1];
        y = c[2];
        break;
      case 'C':
        emit('c');
        out.number(rel(c[1], x));
        out.number(rel(c[2], y));
        out.number(rel(c[3], x));
        out.number(rel(c[4], y));
        out.number(rel(c[5], x));
        out.number(rel(c[6], y));
        x = c[5];
        y = c[6];
        break;
      case 'Z':
        out.command('z');
        last = 'z';
        x = startX;
        y = startY;
        break;
    }
  }
  return out.text;
}

function hexByte(value: number): string {
  return value.toString(16).padStart(2, '0');
}

/** "#rgb" when every channel repeats its digit, else "#rrggbb". */
export function hexColor(color: RgbaColor): string {
  const parts = [color.r, color.g, color.b].map(hexByte);
  if (parts.every((p) => p[0] === p[1])) return `#${parts.map((p) => p[0]).join('')}`;
  return `#${parts.join('')}`;
}

export interface SvgDocumentOptions {
  precision: number;
  /** Pixel-aligned output renders exactly only without anti-aliasing. */
  crispEdges?: boolean;
}

export function svgDocument(
  width: number,
  height: number,
  paths: readonly VectorPath[],
  options: SvgDocumentOptions,
): string {
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"${options.crispEdges ? ' shape-rendering="crispEdges"' : ''}>`,
  ];
  for (const path of paths) {
    const opacity =
      path.color.a < 255 ? ` fill-opacity="${formatNumber(Math.round((path.color.a / 255) * 1000) / 1000, 3)}"` : '';
    parts.push(`<path d="${pathData(path.commands, options.precision)}" fill="${hexColor(path.color)}"${opacity}/>`);
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

import { PathText, shortDecimal, writePathData } from './path-text.ts';
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
  return shortDecimal(Math.round(raw * scale) / scale, precision);
}

/**
 * SVG path data: absolute first move-to, relative everything else (small numbers are shorter), "h"/"v"
 * for axis-aligned lines. Relative offsets come from the rounded absolute coordinates, so nothing drifts.
 */
export function pathData(commands: readonly PathCommand[], precision: number): string {
  const out = new PathText();
  writePathData(out, commands, precision);
  return out.toString();
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

/** One buffer for every document a thread writes (tracing is synchronous). */
const documentText = new PathText();

export function svgDocument(
  width: number,
  height: number,
  paths: readonly VectorPath[],
  options: SvgDocumentOptions,
): string {
  const out = documentText;
  out.clear();
  out.text(
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"${options.crispEdges ? ' shape-rendering="crispEdges"' : ''}>`,
  );
  for (const path of paths) {
    const opacity =
      path.color.a < 255 ? ` fill-opacity="${formatNumber(Math.round((path.color.a / 255) * 1000) / 1000, 3)}"` : '';
    out.text('\n<path d="');
    writePathData(out, path.commands, options.precision);
    out.text(`" fill="${hexColor(path.color)}"${opacity}/>`);
  }
  out.text('\n</svg>\n');
  return out.toString();
}

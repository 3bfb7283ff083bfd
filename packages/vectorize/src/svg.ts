import { PathText, shortDecimal, writePathData, writeRunData } from './path-text.ts';
import { nearestFirstOrder } from './run-order.ts';
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

/**
 * The root of a pixel-aligned document: no anti-aliasing, square caps for the stroked runs, and
 * no fill unless a path says so. Every fill path names its colour, and the stroked runs' paths then
 * need no fill="none" each (0.6-2.8 % of a screenshot's or diagram's bytes).
 */
const CRISP_ROOT = ' shape-rendering="crispEdges" stroke-linecap="square" fill="none"';

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
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"${options.crispEdges ? CRISP_ROOT : ''}>`,
  );
  for (const path of paths) {
    const opacity =
      path.color.a < 255 ? ` fill-opacity="${formatNumber(Math.round((path.color.a / 255) * 1000) / 1000, 3)}"` : '';
    const split = options.crispEdges && path.color.a === 255 ? splitRuns(path.commands) : undefined;
    const fills = split ? split.fills : path.commands;
    if (fills.length > 0) {
      out.text('\n<path d="');
      writePathData(out, fills, options.precision);
      out.text(`" fill="${hexColor(path.color)}"${opacity}/>`);
    }
    if (!split || split.runs === 0) continue;
    out.text('\n<path d="');
    const order = nearestFirstOrder(runPixels, split.runs);
    writeRunData(out, runPixels, order, split.runs, Math.max(1, options.precision));
    out.text(`" stroke="${hexColor(path.color)}"/>`);
  }
  out.text('\n</svg>\n');
  return out.toString();
}

/**
 * Pixel-aligned output (crispEdges): a sub-path that is a clockwise rectangle one pixel high (a
 * speck, a row of a 1-px line, a glyph's fringe) is written as a line through the middle of its
 * row, stroked 1 px wide with square caps (the document sets stroke-linecap="square"), from the
 * first pixel's centre to the last's: "m5 0h2" instead of "m5 0h3v1h-3z". A single pixel is a
 * zero-length sub-path, "m5 0z", which square caps paint as that pixel's square (SVG's rule for
 * zero-length sub-paths; chromium and resvg render it so). One pixel wide and taller, a vertical
 * line. The geometry, and the crisp render, are the same. Holes (anticlockwise) stay in the fill.
 * Most sub-paths of a screenshot's snapped text are such rectangles, most of them single pixels.
 * Returns the other sub-paths (the fill) and how many runs it put in runPixels (writeRunData writes
 * them); undefined when there are no runs.
 */
function splitRuns(commands: readonly PathCommand[]): { fills: PathCommand[]; runs: number } | undefined {
  let fills: PathCommand[] | undefined;
  let count = 0;
  let start = 0;
  for (let i = 0; i < commands.length; i++) {
    if (commands[i]![0] !== 'Z') continue;
    if (rectangleRun(commands, start, i)) {
      fills ??= commands.slice(0, start) as PathCommand[];
      if (4 * count + 4 > runPixels.length) {
        const bigger = new Int32Array(2 * runPixels.length);
        bigger.set(runPixels);
        runPixels = bigger;
      }
      // First and last pixel of the run.
      runPixels[4 * count] = run[0];
      runPixels[4 * count + 1] = run[1];
      runPixels[4 * count + 2] = run[2] - 1;
      runPixels[4 * count + 3] = run[3] - 1;
      count++;
    } else if (fills) for (let k = start; k <= i; k++) fills.push(commands[k]!);
    start = i + 1;
  }
  if (!fills || start !== commands.length) return undefined;
  return { fills, runs: count };
}

/** The runs splitRuns found, four numbers each (reused: documents are written one at a time). */
let runPixels = new Int32Array(4096);

/** The last rectangle rectangleRun found: x0, y0, x1, y1. */
const run: [number, number, number, number] = [0, 0, 0, 0];

/**
 * Whether commands[start..z] is a clockwise axis-aligned rectangle with integer corners, 1 px high
 * or wide (its corners then in `run`).
 */
function rectangleRun(commands: readonly PathCommand[], start: number, z: number): boolean {
  if (z - start !== 4) return false;
  const a = commands[start]!;
  const b = commands[start + 1]!;
  const c = commands[start + 2]!;
  const d = commands[start + 3]!;
  if (a[0] !== 'M' || b[0] !== 'L' || c[0] !== 'L' || d[0] !== 'L') return false;
  if (strokedRunLength(a[1], a[2], b[1], b[2], c[1], c[2], d[1], d[2]) === 0) return false;
  run[0] = Math.min(a[1], c[1]);
  run[1] = Math.min(a[2], c[2]);
  run[2] = Math.max(a[1], c[1]);
  run[3] = Math.max(a[2], c[2]);
  return true;
}

/**
 * The length in pixels of the run svgDocument writes as a stroke for the outline a-b-c-d, or 0 when
 * it writes it as a fill: a run is a clockwise axis-aligned rectangle with integer corners, 1 px
 * high or wide. stacked-runs.ts estimates lengths with it, so the estimate and the writer agree.
 */
export function strokedRunLength(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): number {
  // Axis-aligned: each side keeps x or y.
  if ((ax !== bx && ay !== by) || (bx !== cx && by !== cy) || (cx !== dx && cy !== dy) || (dx !== ax && dy !== ay))
    return 0;
  const twiceArea = ax * by - bx * ay + bx * cy - cx * by + cx * dy - dx * cy + dx * ay - ax * dy;
  if (twiceArea <= 0) return 0;
  if (![ax, ay, cx, cy].every(Number.isInteger)) return 0;
  const width = Math.abs(cx - ax);
  const height = Math.abs(cy - ay);
  return width === 1 || height === 1 ? Math.max(width, height) : 0;
}

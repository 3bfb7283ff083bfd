import { KEY_ALPHA } from './clusters.ts';
import type { TraceParameters } from './options.ts';
import type { Mask } from './outline.ts';
import { traceMask } from './trace-mask.ts';
import type { RgbaImage, VectorPath } from './types.ts';

/** Perceived lightness below this (0–255) counts as ink. */
const INK_THRESHOLD = 128;

/**
 * Binary tracing: dark, visible pixels are ink; 4-connected ink pieces smaller than
 * filter_speckle² pixels are dropped; all the rest becomes one black path (holes stay empty).
 */
export function traceBinary(image: RgbaImage, params: TraceParameters): VectorPath[] {
  const { width: w, height: h, data } = image;
  const n = w * h;
  const ink = new Uint8Array(n);
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    if (data[o + 3]! < KEY_ALPHA) continue;
    const lightness = (299 * data[o]! + 587 * data[o + 1]! + 114 * data[o + 2]!) / 1000;
    if (lightness < INK_THRESHOLD) ink[i] = 1;
  }
  const minArea = params.filter_speckle * params.filter_speckle;
  if (minArea > 1) dropSmallPieces(ink, w, h, minArea);
  const mask: Mask = { width: w, height: h, offsetX: 0, offsetY: 0, bits: ink };
  const commands = traceMask(mask, params, w, h);
  return commands.length > 0 ? [{ color: { r: 0, g: 0, b: 0, a: 255 }, commands }] : [];
}

/** Flood-fills each 4-connected piece; clears those with fewer than `minArea` pixels. */
function dropSmallPieces(ink: Uint8Array, w: number, h: number, minArea: number): void {
  const seen = new Uint8Array(ink.length);
  const stack = new Int32Array(ink.length);
  const piece: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (ink[start] !== 1 || seen[start]) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    piece.length = 0;
    while (top > 0) {
      const p = stack[--top]!;
      piece.push(p);
      const x = p % w;
      if (x > 0 && ink[p - 1] === 1 && !seen[p - 1]) {
        seen[p - 1] = 1;
        stack[top++] = p - 1;
      }
      if (x + 1 < w && ink[p + 1] === 1 && !seen[p + 1]) {
        seen[p + 1] = 1;
        stack[top++] = p + 1;
      }
      if (p >= w && ink[p - w] === 1 && !seen[p - w]) {
        seen[p - w] = 1;
        stack[top++] = p - w;
      }
      if (p + w < w * h && ink[p + w] === 1 && !seen[p + w]) {
        seen[p + w] = 1;
        stack[top++] = p + w;
      }
    }
    if (piece.length < minArea) for (const p of piece) ink[p] = 0;
  }
}

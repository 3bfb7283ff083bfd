/** Render-and-compare helpers shared by the benchmark and the regression tests. */
import { readFile } from 'node:fs/promises';
import { Resvg } from '@resvg/resvg-js';
import sharp from 'sharp';

export interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
  premultiplied?: boolean;
}

export async function loadPng(path: string): Promise<Pixels> {
  const { data, info } = await sharp(await readFile(path))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** Renders an SVG at its own size with resvg. Its RGBA comes premultiplied by alpha. */
export function renderSvg(svg: string): Pixels {
  const rendered = new Resvg(svg, { fitTo: { mode: 'original' } }).render();
  const data = new Uint8Array(rendered.pixels);
  return { width: rendered.width, height: rendered.height, data, premultiplied: true };
}

/** RGB on white (alpha composited), three bytes per pixel. */
export function onWhite(image: Pixels): Uint8Array {
  const n = image.width * image.height;
  const out = new Uint8Array(n * 3);
  const d = image.data;
  for (let i = 0; i < n; i++) {
    const a = d[4 * i + 3]! / 255;
    const k = image.premultiplied ? 1 : a;
    for (let c = 0; c < 3; c++) out[3 * i + c] = Math.round(d[4 * i + c]! * k + 255 * (1 - a));
  }
  return out;
}

export function psnr(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  if (sum === 0) return Number.POSITIVE_INFINITY;
  return 10 * Math.log10((255 * 255) / (sum / a.length));
}

function luma(rgb: Uint8Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = 0.299 * rgb[3 * i]! + 0.587 * rgb[3 * i + 1]! + 0.114 * rgb[3 * i + 2]!;
  return out;
}

/** Mean SSIM on luma over 8 × 8 windows every 4 pixels (Wang et al. 2004 constants). */
export function ssim(a: Uint8Array, b: Uint8Array, width: number, height: number): number {
  const x = luma(a, width * height);
  const y = luma(b, width * height);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  const win = Math.min(8, width, height);
  const step = Math.max(1, win >> 1);
  let total = 0;
  let windows = 0;
  for (let top = 0; top + win <= height; top += step) {
    for (let left = 0; left + win <= width; left += step) {
      let sx = 0;
      let sy = 0;
      let sxx = 0;
      let syy = 0;
      let sxy = 0;
      for (let j = 0; j < win; j++) {
        const row = (top + j) * width + left;
        for (let i = 0; i < win; i++) {
          const p = x[row + i]!;
          const q = y[row + i]!;
          sx += p;
          sy += q;
          sxx += p * p;
          syy += q * q;
          sxy += p * q;
        }
      }
      const m = win * win;
      const mx = sx / m;
      const my = sy / m;
      const vx = sxx / m - mx * mx;
      const vy = syy / m - my * my;
      const cov = sxy / m - mx * my;
      total += ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
      windows++;
    }
  }
  return windows > 0 ? total / windows : 1;
}

/**
 * Background showing through between shapes: pixels that are opaque in the input, with all eight
 * neighbours opaque too (so not an outline against transparency), yet not fully covered when rendered.
 */
export function seeThroughPixels(input: Pixels, rendered: Pixels): number {
  const { width: w, height: h, data } = input;
  let count = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (rendered.data[4 * (y * w + x) + 3]! >= 250) continue;
      let interior = true;
      for (let dy = -1; dy <= 1 && interior; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = Math.min(w - 1, Math.max(0, x + dx));
          const ny = Math.min(h - 1, Math.max(0, y + dy));
          if (data[4 * (ny * w + nx) + 3] !== 255) {
            interior = false;
            break;
          }
        }
      }
      if (interior) count++;
    }
  }
  return count;
}

export interface Quality {
  psnr: number;
  ssim: number;
  seeThrough: number;
  /** Edge F1 (see edgeScore). */
  edges: number;
}

export function compare(input: Pixels, svg: string): Quality {
  const rendered = renderSvg(svg);
  const a = onWhite(input);
  const b = onWhite(rendered);
  return {
    psnr: psnr(a, b),
    ssim: ssim(a, b, input.width, input.height),
    seeThrough: seeThroughPixels(input, rendered),
    edges: edgeScore(a, b, input.width, input.height).f1,
  };
}

/** Edge map on luma: a pixel is an edge where the larger central difference reaches `threshold`. */
export function edgeMap(rgb: Uint8Array, width: number, height: number, threshold = 40): Uint8Array {
  const y = luma(rgb, width * height);
  const edges = new Uint8Array(width * height);
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = row * width + col;
      const gx = y[col + 1 < width ? i + 1 : i]! - y[col > 0 ? i - 1 : i]!;
      const gy = y[row + 1 < height ? i + width : i]! - y[row > 0 ? i - width : i]!;
      if (Math.max(Math.abs(gx), Math.abs(gy)) >= threshold) edges[i] = 1;
    }
  }
  return edges;
}

/** Share of the edge pixels of `a` that have an edge of `b` within one pixel (8-neighbourhood). */
function edgeHits(a: Uint8Array, b: Uint8Array, width: number, height: number): number {
  let total = 0;
  let hits = 0;
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      if (!a[row * width + col]) continue;
      total++;
      let found = false;
      for (let dy = -1; dy <= 1 && !found; dy++) {
        const r = row + dy;
        if (r < 0 || r >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const c = col + dx;
          if (c >= 0 && c < width && b[r * width + c]) {
            found = true;
            break;
          }
        }
      }
      if (found) hits++;
    }
  }
  return total === 0 ? 1 : hits / total;
}

/**
 * Edge F1 between the input's and the render's edge maps, one pixel of slack: recall falls when
 * thin lines, text strokes or borders vanish; precision falls on jagged or invented outlines.
 * PSNR barely moves for a lost 1-px line; this does.
 */
export function edgeScore(
  a: Uint8Array,
  b: Uint8Array,
  width: number,
  height: number,
): { precision: number; recall: number; f1: number } {
  const ea = edgeMap(a, width, height);
  const eb = edgeMap(b, width, height);
  const recall = edgeHits(ea, eb, width, height);
  const precision = edgeHits(eb, ea, width, height);
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

import { loopCorners, walkLoop } from './outline.ts';
import { PathBuilder } from './path-builder.ts';
import type { RgbaImage, VectorPath } from './types.ts';

/** Gives each distinct RGBA value an index (fully transparent pixels: -1), in order of first appearance. */
export function indexColors(image: RgbaImage): { labels: Int32Array; colors: number[] } {
  const { data } = image;
  const n = image.width * image.height;
  const labels = new Int32Array(n);
  const indexOf = new Map<number, number>();
  const colors: number[] = [];
  let lastKey = -1;
  let lastIndex = -1;
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    if (data[o + 3] === 0) {
      labels[i] = -1;
      continue;
    }
    const key = ((data[o]! << 24) | (data[o + 1]! << 16) | (data[o + 2]! << 8) | data[o + 3]!) >>> 0;
    // Neighbouring pixels usually repeat: skip the map lookup for runs.
    if (key !== lastKey) {
      let index = indexOf.get(key);
      if (index === undefined) {
        index = colors.length;
        indexOf.set(key, index);
        colors.push(key);
      }
      lastKey = key;
      lastIndex = index;
    }
    labels[i] = lastIndex;
  }
  return { labels, colors };
}

/**
 * Exact regions of identical RGBA, one path per colour, axis-aligned moves only. Rendered at the
 * input size without anti-aliasing it reproduces every pixel; fully transparent pixels get no path.
 */
export function tracePixelExact(image: RgbaImage, precision: number): VectorPath[] {
  const { labels, colors } = indexColors(image);
  return traceLabelRegions(labels, colors, image.width, image.height, precision);
}

/** Exact regions of equal labels (-1 = none), one path per label with colour `colors[label]` (RGBA key). */
function traceLabelRegions(
  labels: Int32Array,
  colors: readonly number[],
  w: number,
  h: number,
  precision: number,
): VectorPath[] {
  const builders = colors.map(() => new PathBuilder(precision));
  // Per pixel: 1 once its top edge has been walked.
  const walked = new Int32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const index = y * w + x;
      const label = labels[index]!;
      if (label < 0 || walked[index] === 1 || (y > 0 && labels[index - w] === label)) continue;
      const n = walkLoop(labels, w, h, label, label + 1, x, y, walked, 1);
      builders[label]!.polygon(loopCorners(), n);
    }
  }
  return colors.map((key, i) => ({
    color: { r: key >>> 24, g: (key >>> 16) & 255, b: (key >>> 8) & 255, a: key & 255 },
    commands: builders[i]!.commands,
  }));
}

/**
 * Distinct visible colours, counting stops once `limit` is passed (so photos cost little).
 */
export function countColors(image: RgbaImage, limit: number): number {
  const { data } = image;
  const seen = new Set<number>();
  let lastKey = -1;
  for (let o = 0; o < data.length; o += 4) {
    if (data[o + 3] === 0) continue;
    const key = ((data[o]! << 24) | (data[o + 1]! << 16) | (data[o + 2]! << 8) | data[o + 3]!) >>> 0;
    if (key === lastKey) continue;
    lastKey = key;
    seen.add(key);
    if (seen.size > limit) break;
  }
  return seen.size;
}

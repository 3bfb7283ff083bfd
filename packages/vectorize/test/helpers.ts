import type { RgbaImage } from '../src/index.ts';

export type Rgba = readonly [number, number, number, number];

export const WHITE: Rgba = [255, 255, 255, 255];
export const BLACK: Rgba = [0, 0, 0, 255];
export const RED: Rgba = [220, 30, 30, 255];
export const BLUE: Rgba = [30, 60, 200, 255];
export const CLEAR: Rgba = [0, 0, 0, 0];

export function makeImage(width: number, height: number, paint: (x: number, y: number) => Rgba): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(paint(x, y), (y * width + x) * 4);
  return { width, height, data };
}

/** RGBA of one pixel of a rendering (premultiplied, as resvg gives it). */
export function pixelAt(image: { width: number; data: Uint8Array }, x: number, y: number): number[] {
  const o = (y * image.width + x) * 4;
  return Array.from(image.data.subarray(o, o + 4));
}

/** Deterministic pseudo-random numbers in [0, 1). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

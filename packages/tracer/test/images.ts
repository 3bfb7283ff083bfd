import type { RgbaImage } from '@trove/vectorize';

/** White with a red block, a blue bar and a green square: four colours, traced pixel-exact by auto. */
export function flatImage(width = 96, height = 64): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let color = [255, 255, 255];
      if (x >= 8 && x < 40 && y >= 8 && y < 40) color = [220, 30, 40];
      if (x >= 48 && x < 88 && y >= 20 && y < 32) color = [30, 60, 200];
      if (x >= 56 && x < 72 && y >= 40 && y < 56) color = [20, 110, 40];
      data.set([...color, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** Random colours everywhere: the spline engine needs seconds for a few hundred pixels square. */
export function noise(size: number): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = i % 4 === 3 ? 255 : seed >>> 24;
  }
  return { width: size, height: size, data };
}

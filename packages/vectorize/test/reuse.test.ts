import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPng } from '../bench/quality.ts';
import { type RgbaImage, type VectorizeOptions, vectorize } from '../src/index.ts';
import { makeImage, seeded } from './helpers.ts';

const REAL = join(import.meta.dirname, '..', 'fixtures', 'real');

/**
 * The engine keeps its working arrays from one trace to the next (src/scratch.ts): whatever an
 * earlier, larger or smaller image left in them must not change a later result.
 */
describe('traces do not depend on the traces before them', () => {
  const settings: VectorizeOptions[] = [
    {},
    { engine: 'spline' },
    { engine: 'spline', hierarchical: 'cutout' },
    { engine: 'spline', preset: 'photo' },
    { engine: 'spline', path_simplify: 'polygon', filter_speckle: 0 },
    { color_mode: 'binary' },
  ];
  const random = seeded(7);
  const noise = makeImage(90, 70, () => [
    Math.floor(random() * 256),
    Math.floor(random() * 256),
    Math.floor(random() * 256),
    random() < 0.1 ? 0 : 255,
  ]);

  it('a photo, an icon and noise traced in turn give the same SVG every time', async () => {
    const photo = await loadPng(join(REAL, 'photo-hopper-256x300.png'));
    const icon = await loadPng(join(REAL, 'icon-internet-web-browser-48.png'));
    const images: RgbaImage[] = [icon, photo, noise];
    for (const options of settings) {
      const first = images.map((image) => vectorize(image, options).svg);
      // Reversed, so each image follows a different one than the first time.
      const again = [...images].reverse().map((image) => vectorize(image, options).svg);
      expect(again.reverse()).toEqual(first);
    }
  });
});

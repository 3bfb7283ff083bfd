/**
 * How the profile values were chosen: for each kind of picture, candidate settings on the matching
 * benchmark images, with median PSNR, bytes and time. Run: npx tsx bench/profiles.ts
 */
import { join } from 'node:path';
import { median } from '@trove/stats';
import { type VectorizeOptions, vectorize } from '../src/index.ts';
import { compare, loadPng } from './quality.ts';

const GROUPS: Record<string, { images: string[]; candidates: VectorizeOptions[] }> = {
  icon: {
    images: ['icon-flat-64.png', 'icon-transparent-128.png', 'logo-aa-256.png', 'badge-translucent-160.png'],
    candidates: [
      {},
      { profile: 'icon' },
      { color_precision: 8, filter_speckle: 2, layer_difference: 8 },
      { color_precision: 7, filter_speckle: 2, layer_difference: 16 },
      { color_precision: 8, filter_speckle: 1, layer_difference: 16, length_threshold: 3.5 },
    ],
  },
  logo: {
    images: [
      'logo-aa-256.png',
      'logo-aa-transparent-512.png',
      'illustration-gradients-600x400.png',
      'map-flat-1000x700.png',
    ],
    candidates: [
      {},
      { profile: 'logo' },
      { color_precision: 7, filter_speckle: 4, layer_difference: 24 },
      { color_precision: 6, filter_speckle: 6, layer_difference: 32 },
      { color_precision: 8, filter_speckle: 4, layer_difference: 16, corner_threshold: 75 },
    ],
  },
  photo: {
    images: ['photo-like-480x320.png', 'illustration-gradients-600x400.png'],
    candidates: [
      {},
      { preset: 'photo' },
      { profile: 'photo' },
      { color_precision: 6, filter_speckle: 8, layer_difference: 24 },
      { color_precision: 5, filter_speckle: 6, layer_difference: 16 },
      { color_precision: 6, filter_speckle: 6, layer_difference: 32, corner_threshold: 180 },
    ],
  },
  lineart: {
    images: ['lineart-aa-400.png', 'lineart-crisp-300.png'],
    candidates: [
      { color_mode: 'binary' },
      { profile: 'lineart' },
      { color_mode: 'binary', filter_speckle: 2, corner_threshold: 90 },
      { color_mode: 'binary', filter_speckle: 1 },
      { color_mode: 'binary', filter_speckle: 2, corner_threshold: 60, length_threshold: 3.5 },
    ],
  },
};

for (const [group, { images, candidates }] of Object.entries(GROUPS)) {
  const loaded = await Promise.all(images.map((f) => loadPng(join(import.meta.dirname, '..', 'fixtures', f))));
  console.log(`\n${group}: ${images.join(', ')}`);
  for (const candidate of candidates) {
    const psnrs: number[] = [];
    const bytes: number[] = [];
    const times: number[] = [];
    for (const image of loaded) {
      const options = { engine: 'spline', ...candidate } as VectorizeOptions;
      vectorize(image, options);
      const start = performance.now();
      const result = vectorize(image, options);
      times.push(performance.now() - start);
      psnrs.push(compare(image, result.svg).psnr);
      bytes.push(result.svg.length);
    }
    console.log(
      `  ${JSON.stringify(candidate).padEnd(90)} PSNR ${median(psnrs).toFixed(2)}  bytes ${median(bytes).toFixed(0).padStart(7)}  ms ${median(times).toFixed(1)}`,
    );
  }
}

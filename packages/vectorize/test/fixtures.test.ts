import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compare, loadPng } from '../bench/quality.ts';
import { vectorize } from '../src/index.ts';
import { FAST_CASES } from './fixture-cases.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const manifest: { file: string; flat: boolean }[] = JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8'));

/**
 * Floors from `npx tsx bench/floors.ts` at the time of writing, less a margin (0.5 dB PSNR, 0.01
 * SSIM, 20 % bytes): a change that makes tracing clearly worse fails here. Raise them when
 * quality improves.
 */
const FLOORS: Record<string, { psnr: number; ssim: number; bytes: number }> = {
  'icon-flat-64.png {"engine":"spline"}': { psnr: 23.62, ssim: 0.9343, bytes: 1289 },
  'icon-transparent-128.png {"engine":"spline"}': { psnr: 29.3, ssim: 0.9722, bytes: 906 },
  'icon-transparent-128.png {"engine":"spline","preset":"photo"}': { psnr: 27.48, ssim: 0.9536, bytes: 1455 },
  'logo-aa-256.png {"engine":"spline"}': { psnr: 33.34, ssim: 0.9893, bytes: 3298 },
  'logo-aa-256.png {"engine":"spline","preset":"poster","hierarchical":"cutout"}': {
    psnr: 33.25,
    ssim: 0.9866,
    bytes: 4745,
  },
  'logo-aa-transparent-512.png {"engine":"spline"}': { psnr: 37.19, ssim: 0.9952, bytes: 4173 },
  'pixel-tiles-64.png {"engine":"spline"}': { psnr: 20.88, ssim: 0.8215, bytes: 4272 },
  'pixel-sprite-128.png {"engine":"spline","preset":"photo"}': { psnr: 16.53, ssim: 0.721, bytes: 5227 },
  'lineart-aa-400.png {"engine":"spline","preset":"bw"}': { psnr: 27.09, ssim: 0.9809, bytes: 8416 },
  'lineart-aa-400.png {"engine":"spline","path_simplify":"polygon"}': { psnr: 26.26, ssim: 0.9825, bytes: 3618 },
  'lineart-crisp-300.png {"engine":"spline"}': { psnr: 28.83, ssim: 0.9878, bytes: 3420 },
  'badge-translucent-160.png {"engine":"spline"}': { psnr: 32.76, ssim: 0.9871, bytes: 2984 },
  'checker-stripes-200.png {"engine":"spline"}': { psnr: Number.POSITIVE_INFINITY, ssim: 1.0, bytes: 6047 },
};

describe('quality floors on the benchmark images', () => {
  for (const c of FAST_CASES) {
    const key = `${c.file} ${JSON.stringify(c.options)}`;
    it(key, async () => {
      const floor = FLOORS[key]!;
      const image = await loadPng(join(FIXTURES, c.file));
      const result = vectorize(image, c.options);
      const quality = compare(image, result.svg);
      expect(quality.psnr).toBeGreaterThanOrEqual(floor.psnr - 0.5);
      expect(quality.ssim).toBeGreaterThanOrEqual(floor.ssim - 0.01);
      expect(result.svg.length).toBeLessThanOrEqual(floor.bytes * 1.2);
      // Stacked colour output never lets the background through between opaque shapes. (Cutout
      // shapes meet edge to edge, so anti-aliasing shows hairlines; binary mode leaves paper empty.)
      const stackedColor = c.options.hierarchical !== 'cutout' && c.options.preset !== 'bw';
      if (stackedColor) expect(quality.seeThrough).toBe(0);
      else expect(quality.seeThrough).toBeGreaterThan(0);
    });
  }
});

const FINE_DETAIL = new Set(['lineart-aa-400.png']);

describe('flat benchmark images', () => {
  for (const entry of manifest) {
    // Anti-aliased line art is fine detail: auto snaps it to its dominant colours, exact runs.
    const exact = entry.flat || FINE_DETAIL.has(entry.file);
    it(`${entry.file}: auto picks ${entry.flat ? 'pixel-exact, which is lossless' : exact ? 'pixel-exact of its dominant colours' : 'spline'}`, async () => {
      const image = await loadPng(join(FIXTURES, entry.file));
      const result = vectorize(image);
      expect(result.engineUsed).toBe(exact ? 'pixel-exact' : 'spline');
      if (entry.flat) expect(compare(image, result.svg).psnr).toBe(Number.POSITIVE_INFINITY);
    });
  }
});

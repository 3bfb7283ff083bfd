import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compare, loadPng } from '../bench/quality.ts';
import { vectorize } from '../src/index.ts';
import { makeImage } from './helpers.ts';

const REAL = join(import.meta.dirname, '..', 'fixtures', 'real');

describe('auto on fine detail (diagrams, screenshots)', () => {
  it('keeps 1-px borders and small labels of a graphviz diagram', async () => {
    const image = await loadPng(join(REAL, 'diagram-records.png'));
    const result = vectorize(image);
    expect(result.engineUsed).toBe('pixel-exact');
    // A handful of dominant colours, the paper first as one frame-sized path.
    expect(result.paths.length).toBeLessThanOrEqual(24);
    expect(result.paths[0]!.color).toEqual({ r: 255, g: 255, b: 255, a: 255 });
    const quality = compare(image, result.svg);
    expect(quality.edges).toBeGreaterThan(0.98);
    expect(quality.psnr).toBeGreaterThan(30);
    // Forced spline merges the thin borders and strokes away: the edge measure sees it.
    expect(compare(image, vectorize(image, { engine: 'spline' }).svg).edges).toBeLessThan(0.95);
  });

  it('snaps anti-aliasing to paper or ink: 1-px grey-edged lines on white stay lines', () => {
    const image = makeImage(40, 30, (x, y) => {
      if (y === 10 || x === 20) return [0, 0, 0, 255];
      if (y === 11 || x === 21) return [170, 170, 170, 255]; // anti-aliased fringe
      return [255, 255, 255, 255];
    });
    // 40 faint one-pixel colours: too many colours for plain pixel-exact, too few pixels to count.
    for (let i = 0; i < 40; i++) image.data.set([200 + i, 255, 255, 255], 4 * (29 * 40 + i));
    const result = vectorize(image);
    expect(result.engineUsed).toBe('pixel-exact');
    const quality = compare({ ...image, data: new Uint8Array(image.data.buffer) }, result.svg);
    expect(quality.edges).toBeGreaterThan(0.95);
  });

  it('leaves photos and gradient icons to the spline engine', async () => {
    for (const file of ['photo-hopper-256x300.png', 'logo-folder-256.png', 'icon-dialog-information-64.png']) {
      expect(vectorize(await loadPng(join(REAL, file))).engineUsed).toBe('spline');
    }
  });
});

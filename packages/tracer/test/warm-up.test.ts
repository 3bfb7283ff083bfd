import { vectorize } from '@trove/vectorize';
import { describe, expect, it } from 'vitest';
import { warmUp, warmUpSamples } from '../src/pool/warm-up.ts';

describe('warm-up samples', () => {
  it('take each path auto can take, so each is compiled before the first real request', () => {
    const engines = warmUpSamples().map(
      ({ picture }) => vectorize({ ...picture, data: picture.data.slice() }).engineUsed,
    );
    expect(engines).toEqual(['spline', 'pixel-exact', 'pixel-exact', 'spline', 'spline', 'spline']);
  });

  it('include a flat logo with sharp corners and long curves that the spline engine fits', () => {
    const logo = warmUpSamples()[4]!.picture;
    const traced = vectorize({ ...logo, data: logo.data.slice() }, { engine: 'spline' });
    // Ring (outer and hole), star and band: each a separate shape, the band and ring curved.
    expect(traced.paths.length).toBeGreaterThanOrEqual(4);
    expect(traced.svg).toMatch(/[cq]/i);
  });

  it('include a badge on a clear background, traced with its soft edges in alpha', () => {
    const badge = warmUpSamples()[5]!.picture;
    const traced = vectorize({ ...badge, data: badge.data.slice() });
    // The corners stay clear (no background shape), and the soft shadow gives translucent shapes.
    expect(traced.paths.every((path) => path.color.a > 0)).toBe(true);
    expect(traced.paths.some((path) => path.color.a > 0 && path.color.a < 255)).toBe(true);
    expect(traced.svg).not.toMatch(/<path d="M0 0h512v512h-512z"/);
  });

  it('go through every sample in turn on every thread, so no later path throws away code compiled earlier', async () => {
    const widths = warmUpSamples().map(({ picture }) => picture.width);
    const seen: number[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const recorder = {
      async trace(image: { width: number }) {
        seen.push(image.width);
        mostAtOnce = Math.max(mostAtOnce, ++running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return {} as never;
      },
    };
    await warmUp(recorder, 2, 3);
    // Three rounds of all samples, each job twice at once (one per thread).
    const expected = [...widths, ...widths, ...widths].flatMap((width) => [width, width]);
    expect(seen).toEqual(expected);
    expect(mostAtOnce).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { onWhite, psnr, renderSvg } from '../bench/quality.ts';
import { type PathCommand, pathData, vectorize } from '../src/index.ts';
import { BLACK, BLUE, CLEAR, makeImage, pixelAt, RED, type Rgba, WHITE } from './helpers.ts';

const spline = { engine: 'spline' } as const;

function corners(commands: readonly PathCommand[]): number[][] {
  return commands.filter((c) => c[0] !== 'Z').map((c) => c.slice(-2) as number[]);
}

describe('spline engine, known answers', () => {
  it('a filled square is one path with exact corners', () => {
    const image = makeImage(20, 20, (x, y) => (x >= 5 && x < 15 && y >= 4 && y < 14 ? RED : CLEAR));
    const result = vectorize(image, spline);
    expect(result.paths).toHaveLength(1);
    expect(result.paths[0]!.color).toEqual({ r: 220, g: 30, b: 30, a: 255 });
    expect(corners(result.paths[0]!.commands)).toEqual([
      [5, 4],
      [15, 4],
      [15, 14],
      [5, 14],
    ]);
    expect(result.svg).toContain('<path d="M5 4h10v10h-10z" fill="#dc1e1e"/>');
  });

  it('a ring on transparency leaves its hole empty', () => {
    const image = makeImage(40, 40, (x, y) => {
      const r = Math.hypot(x - 19.5, y - 19.5);
      return r < 16 && r >= 8 ? BLUE : CLEAR;
    });
    const result = vectorize(image, spline);
    expect(result.paths).toHaveLength(1);
    const rendered = renderSvg(result.svg);
    expect(pixelAt(rendered, 20, 20)).toEqual([0, 0, 0, 0]);
    expect(pixelAt(rendered, 20, 8)).toEqual([30, 60, 200, 255]);
    expect(pixelAt(rendered, 0, 0)).toEqual([0, 0, 0, 0]);
    // Outer outline and hole: two sub-paths.
    expect(result.paths[0]!.commands.filter((c) => c[0] === 'M')).toHaveLength(2);
  });

  it('nested rings keep their order: each colour shows where it was', () => {
    const colors: Rgba[] = [WHITE, RED, BLUE, BLACK, RED];
    const image = makeImage(60, 60, (x, y) => colors[Math.min(4, Math.floor(Math.hypot(x - 29.5, y - 29.5) / 6))]!);
    const result = vectorize(image, { ...spline, filter_speckle: 2 });
    const rendered = renderSvg(result.svg);
    expect(pixelAt(rendered, 30, 30)).toEqual([...WHITE]);
    expect(pixelAt(rendered, 30, 30 - 9)).toEqual([...RED]);
    expect(pixelAt(rendered, 30, 30 - 15)).toEqual([...BLUE]);
    expect(pixelAt(rendered, 30, 30 - 21)).toEqual([...BLACK]);
    expect(pixelAt(rendered, 1, 1)).toEqual([...RED]);
    expect(psnr(onWhite(image as never), onWhite(rendered))).toBeGreaterThan(20);
  });

  it('stacked rings leave no gap between shapes; cutout shapes do not overlap', () => {
    const colors: Rgba[] = [WHITE, RED, BLUE, BLACK];
    const image = makeImage(60, 60, (x, y) => colors[Math.min(3, Math.floor(Math.hypot(x - 29.5, y - 29.5) / 7))]!);
    const stacked = renderSvg(vectorize(image, spline).svg);
    for (let i = 3; i < stacked.data.length; i += 4) expect(stacked.data[i]).toBe(255);
    const cutout = vectorize(image, { ...spline, hierarchical: 'cutout' });
    // The outer layer of a cutout result has the inner shapes as holes.
    expect(cutout.paths[0]!.commands.filter((c) => c[0] === 'M').length).toBeGreaterThan(1);
    expect(pixelAt(renderSvg(cutout.svg), 30, 30)).toEqual([...WHITE]);
  });

  it('cutout shapes tile the image: every pixel is covered by exactly one path', () => {
    const colors: Rgba[] = [WHITE, RED, BLUE, BLACK];
    // Nested squares: straight pixel edges, so each path renders without anti-aliasing.
    const image = makeImage(40, 40, (x, y) => colors[Math.floor(Math.min(x, y, 39 - x, 39 - y) / 5) % 4]!);
    const result = vectorize(image, { ...spline, hierarchical: 'cutout' });
    expect(result.paths.map((p) => p.color.r).sort((a, b) => a - b)).toEqual([0, 30, 220, 255]);
    const coverage = new Uint8Array(40 * 40);
    for (const path of result.paths) {
      const alone = result.svg
        .replace(/<path[^>]*>\n?/g, '')
        .replace('</svg>', `<path d="${pathData(path.commands, 2)}"/></svg>`);
      const rendered = renderSvg(alone);
      for (let i = 0; i < coverage.length; i++) coverage[i]! += rendered.data[4 * i + 3]! === 255 ? 1 : 0;
    }
    expect(coverage.every((c) => c === 1)).toBe(true);
  });

  it('a checkerboard of 8 px cells comes back exactly', () => {
    const image = makeImage(64, 64, (x, y) => (((x >> 3) + (y >> 3)) % 2 === 0 ? BLACK : WHITE));
    for (const path_simplify of ['spline', 'polygon', 'none'] as const) {
      const result = vectorize(image, { ...spline, path_simplify });
      expect(psnr(onWhite(image as never), onWhite(renderSvg(result.svg)))).toBe(Number.POSITIVE_INFINITY);
    }
  });

  it('1×1 and 1×N images', () => {
    const one = vectorize(
      makeImage(1, 1, () => RED),
      spline,
    );
    expect(one.paths).toHaveLength(1);
    expect(one.svg).toContain('width="1" height="1" viewBox="0 0 1 1"');
    expect(pixelAt(renderSvg(one.svg), 0, 0)).toEqual([...RED]);
    const row = makeImage(9, 1, (x) => (x < 5 ? RED : BLUE));
    const traced = vectorize(row, { ...spline, filter_speckle: 1 });
    const rendered = renderSvg(traced.svg);
    expect(pixelAt(rendered, 0, 0)).toEqual([...RED]);
    expect(pixelAt(rendered, 8, 0)).toEqual([...BLUE]);
    const column = vectorize(
      makeImage(1, 7, () => BLUE),
      spline,
    );
    expect(corners(column.paths[0]!.commands)).toEqual([
      [0, 0],
      [1, 0],
      [1, 7],
      [0, 7],
    ]);
  });

  it('a fully transparent image has no paths; a fully opaque one is one full-frame path', () => {
    const clear = vectorize(
      makeImage(30, 20, () => CLEAR),
      spline,
    );
    expect(clear.paths).toEqual([]);
    expect(clear.svg).not.toContain('<path');
    const opaque = vectorize(
      makeImage(30, 20, () => BLUE),
      spline,
    );
    expect(opaque.paths).toHaveLength(1);
    expect(corners(opaque.paths[0]!.commands)).toEqual([
      [0, 0],
      [30, 0],
      [30, 20],
      [0, 20],
    ]);
  });

  it('keeps translucent colours translucent', () => {
    const image = makeImage(16, 16, (x, y) => (x >= 4 && x < 12 && y >= 4 && y < 12 ? [200, 0, 0, 153] : CLEAR));
    const result = vectorize(image, spline);
    expect(result.paths).toHaveLength(1);
    expect(result.paths[0]!.color).toEqual({ r: 200, g: 0, b: 0, a: 153 });
    expect(result.svg).toContain('fill-opacity=".6"');
  });

  it('binary mode traces dark line art in black and drops specks', () => {
    const image = makeImage(50, 50, (x, y) => {
      const onCircle = Math.abs(Math.hypot(x - 24.5, y - 24.5) - 15) < 1.5;
      const speck = x === 3 && y === 3;
      return onCircle || speck ? [40, 40, 40, 255] : [250, 250, 250, 255];
    });
    const result = vectorize(image, { ...spline, color_mode: 'binary' });
    expect(result.paths).toHaveLength(1);
    expect(result.paths[0]!.color).toEqual({ r: 0, g: 0, b: 0, a: 255 });
    // The circle outline has an outer and an inner sub-path; the 1-pixel speck is gone.
    expect(result.paths[0]!.commands.filter((c) => c[0] === 'M')).toHaveLength(2);
    const rendered = renderSvg(result.svg);
    expect(pixelAt(rendered, 25, 25)).toEqual([0, 0, 0, 0]);
    expect(pixelAt(rendered, 3, 3)).toEqual([0, 0, 0, 0]);
    expect(pixelAt(rendered, 25, 10)).toEqual([0, 0, 0, 255]);
  });

  it('polygon and none modes write straight lines only; none follows pixel edges', () => {
    const image = makeImage(32, 32, (x, y) => (Math.hypot(x - 15.5, y - 15.5) < 11 ? RED : WHITE));
    const polygon = vectorize(image, { ...spline, path_simplify: 'polygon' });
    const none = vectorize(image, { ...spline, path_simplify: 'none' });
    for (const result of [polygon, none]) {
      expect(result.paths[1]!.commands.every((c) => c[0] !== 'C')).toBe(true);
    }
    expect(none.paths[1]!.commands.every((c) => c.slice(1).every(Number.isInteger))).toBe(true);
    expect(polygon.paths[1]!.commands.length).toBeLessThan(none.paths[1]!.commands.length);
    const curves = vectorize(image, spline).paths[1]!.commands;
    expect(curves.some((c) => c[0] === 'C')).toBe(true);
  });

  it('path_precision sets the decimals written', () => {
    const image = makeImage(32, 32, (x, y) => (Math.hypot(x - 15.5, y - 15.5) < 11 ? RED : WHITE));
    const coarse = vectorize(image, { ...spline, path_precision: 0 });
    for (const c of coarse.paths[1]!.commands)
      for (const v of c.slice(1) as number[]) expect(Number.isInteger(v)).toBe(true);
    const fine = vectorize(image, { ...spline, path_precision: 3 });
    const decimals = fine.paths[1]!.commands.flatMap((c) =>
      (c.slice(1) as number[]).map((v) => (String(v).split('.')[1] ?? '').length),
    );
    expect(Math.max(...decimals)).toBe(3);
  });
});

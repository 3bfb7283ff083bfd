import { describe, expect, it } from 'vitest';
import { renderSvg } from '../bench/quality.ts';
import { AUTO_PIXEL_EXACT_MAX_COLORS, chooseEngine, resolveOptions, vectorize } from '../src/index.ts';
import { BLUE, CLEAR, makeImage, RED, type Rgba, seeded, WHITE } from './helpers.ts';

/** Rendered RGBA equals the input on every pixel (translucent pixels compared premultiplied, ±1). */
function expectExact(image: ReturnType<typeof makeImage>, svg: string): void {
  const rendered = renderSvg(svg);
  expect(rendered.width).toBe(image.width);
  expect(rendered.height).toBe(image.height);
  let mismatches = 0;
  for (let i = 0; i < image.data.length; i += 4) {
    const a = image.data[i + 3]!;
    for (let c = 0; c < 4; c++) {
      const expected = c === 3 ? a : Math.round((image.data[i + c]! * a) / 255);
      const tolerance = a === 255 || a === 0 ? 0 : 1;
      if (Math.abs(rendered.data[i + c]! - expected) > tolerance) mismatches++;
    }
  }
  expect(mismatches).toBe(0);
}

describe('pixel-exact engine', () => {
  it('keeps two holes that touch at a corner empty, whichever colour is painted first', () => {
    // Holes at (4, 3) and (3, 4) share the corner (4, 4), where the outline walk of the blue
    // square passes twice; that corner is also where the walk around them starts.
    for (const [outside, inside] of [
      [WHITE, BLUE],
      [BLUE, WHITE],
    ] as const) {
      const image = makeImage(8, 8, (x, y) => {
        if (x === 0 || y === 0 || x === 7 || y === 7) return outside;
        if ((x === 4 && y === 3) || (x === 3 && y === 4)) return outside;
        return inside;
      });
      expectExact(image, vectorize(image, { engine: 'pixel-exact' }).svg);
    }
  });

  it('reproduces random flat images exactly, one path per colour, axis-aligned moves only', () => {
    const palette: Rgba[] = [WHITE, RED, BLUE, [20, 160, 90, 255], [250, 200, 40, 255], CLEAR];
    for (const seed of [1, 2, 3, 4]) {
      const next = seeded(seed);
      const width = 5 + Math.floor(next() * 40);
      const height = 5 + Math.floor(next() * 40);
      // Blocky random art: cells of random size, so there are long edges, single pixels, and holes.
      const cell = 1 + Math.floor(next() * 4);
      const cells = new Map<string, Rgba>();
      const image = makeImage(width, height, (x, y) => {
        const key = `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
        if (!cells.has(key)) cells.set(key, palette[Math.floor(next() * palette.length)]!);
        return cells.get(key)!;
      });
      const result = vectorize(image, { engine: 'pixel-exact' });
      expect(result.engineUsed).toBe('pixel-exact');
      const visibleColours = new Set([...cells.values()].filter((c) => c[3] > 0).map(String));
      expect(result.paths).toHaveLength(visibleColours.size);
      for (const path of result.paths) {
        let x = 0;
        let y = 0;
        for (const c of path.commands) {
          if (c[0] === 'L') expect(c[1] === x || c[2] === y).toBe(true);
          if (c[0] === 'M' || c[0] === 'L') [x, y] = [c[1], c[2]];
          expect(c[0]).not.toBe('C');
        }
      }
      expectExact(image, result.svg);
    }
  });

  it('reproduces every pixel of random noise, single pixels and all', () => {
    const next = seeded(9);
    const palette: Rgba[] = [WHITE, RED, BLUE, CLEAR];
    const image = makeImage(23, 17, () => palette[Math.floor(next() * palette.length)]!);
    expectExact(image, vectorize(image, { engine: 'pixel-exact' }).svg);
  });

  it('keeps translucent colours with their alpha and fully transparent pixels empty', () => {
    const image = makeImage(12, 12, (x, y) => (x < 6 ? [200, 40, 40, 128] : y < 6 ? CLEAR : BLUE));
    const result = vectorize(image, { engine: 'pixel-exact' });
    expect(result.paths.map((p) => p.color)).toEqual([
      { r: 200, g: 40, b: 40, a: 128 },
      { r: 30, g: 60, b: 200, a: 255 },
    ]);
    expectExact(image, result.svg);
  });

  it('handles 1×1, 1×N and fully transparent images', () => {
    expectExact(
      makeImage(1, 1, () => RED),
      vectorize(
        makeImage(1, 1, () => RED),
        { engine: 'pixel-exact' },
      ).svg,
    );
    const strip = makeImage(1, 9, (_, y) => (y % 3 === 0 ? RED : BLUE));
    expectExact(strip, vectorize(strip, { engine: 'pixel-exact' }).svg);
    expect(
      vectorize(
        makeImage(5, 5, () => CLEAR),
        { engine: 'pixel-exact' },
      ).paths,
    ).toEqual([]);
  });

  it('a ring with a hole gives the hole back as empty', () => {
    const image = makeImage(20, 20, (x, y) => {
      const r = Math.hypot(x - 9.5, y - 9.5);
      return r < 9 && r > 4 ? RED : CLEAR;
    });
    const result = vectorize(image, { engine: 'pixel-exact' });
    expect(result.paths).toHaveLength(1);
    expect(result.paths[0]!.commands.filter((c) => c[0] === 'M')).toHaveLength(2);
    expectExact(image, result.svg);
  });

  it('writes 1-px rows, columns and specks as square-capped strokes, keeping 1-px high holes empty', () => {
    // Specks, a 1-px line each way, and a blue frame whose hole is one pixel high.
    const image = makeImage(16, 12, (x, y) => {
      if ((x === 1 && y === 1) || (x >= 3 && x < 9 && y === 1)) return RED;
      if (x === 12 && y >= 1 && y < 10) return RED;
      if (x >= 2 && x < 10 && y >= 4 && y < 7) return y === 5 && x >= 3 && x < 9 ? WHITE : BLUE;
      if (x === 14 && y === 11) return BLUE;
      return WHITE;
    });
    const { svg, paths } = vectorize(image, { engine: 'pixel-exact' });
    // Square caps: a run from its first pixel's centre to its last's, a speck a zero-length "z".
    // The root says fill="none" once; every filled path names its fill.
    expect(svg).toMatch(/^<svg [^>]*stroke-linecap="square" fill="none">/);
    expect(svg).toContain('<path d="M1.5 1.5zm2 0h5m4 0v8" stroke="#dc1e1e"/>');
    expect(svg.match(/<path [^>]*>/g)?.filter((path) => !/ (fill|stroke)="#/.test(path))).toEqual([]);
    expect(svg).toContain('stroke="#1e3cc8"');
    // The path list (for PDF and EPS) keeps every region as a filled outline.
    expect(paths.every((path) => path.commands.at(-1)![0] === 'Z')).toBe(true);
    expectExact(image, svg);
  });
});

describe('auto engine', () => {
  it(`picks pixel-exact up to ${AUTO_PIXEL_EXACT_MAX_COLORS} colours and spline above`, () => {
    const few = makeImage(16, 16, (x) => [x * 2, 0, 0, 255]);
    expect(vectorize(few).engineUsed).toBe('pixel-exact');
    const many = makeImage(16, 16, (x, y) => [x * 16, y * 16, 0, 255]);
    expect(vectorize(many).engineUsed).toBe('spline');
    expect(chooseEngine(few, resolveOptions({ color_mode: 'binary' }))).toBe('spline');
    expect(chooseEngine(many, resolveOptions({ engine: 'pixel-exact' }))).toBe('pixel-exact');
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compare, loadPng, type Pixels, renderSvg } from '../bench/quality.ts';
import { snapFineDetail } from '../src/fine-detail.ts';
import { type RgbaImage, vectorize } from '../src/index.ts';
import { dominantColors } from '../src/ink-palette.ts';
import { makeImage } from './helpers.ts';

const REAL = join(import.meta.dirname, '..', 'fixtures', 'real');

/**
 * Channels of the render that differ from the snapped image: exactly, on opaque pixels; by more
 * than one on translucent ones, since resvg's pixels are premultiplied by alpha (rounded).
 */
function channelsOffSnapped(image: RgbaImage, rendered: Pixels): number {
  const snapped = snapFineDetail(image)!;
  let wrong = 0;
  for (let p = 0; p < image.width * image.height; p++) {
    const key = snapped.palette[snapped.labels[p]!]!;
    const alpha = key & 255;
    const expected = [key >>> 24, (key >>> 16) & 255, (key >>> 8) & 255].map((c) => (c * alpha) / 255);
    expected.push(alpha);
    const tolerance = alpha === 255 ? 0 : 1;
    for (let c = 0; c < 4; c++) if (Math.abs(rendered.data[4 * p + c]! - expected[c]!) > tolerance) wrong++;
  }
  return wrong;
}

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

  it('takes a page whose one dominant colour is its paper (a terminal at 90 %)', async () => {
    const image = await loadPng(join(import.meta.dirname, '..', 'fixtures', 'text', 'shell-90.png'));
    const n = image.width * image.height;
    const counts = new Map<number, number>();
    for (let p = 0; p < n; p++) {
      const key = (image.data[4 * p]! << 16) | (image.data[4 * p + 1]! << 8) | image.data[4 * p + 2]!;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const keys = [...counts.keys()];
    const pixels = Int32Array.from(counts.values());
    const ranked = keys.map((_, i) => i).sort((a, b) => pixels[b]! - pixels[a]!);
    const dominant = dominantColors(keys, pixels, ranked, n);
    // Each of its ANSI text colours covers under 0.2 % of the pixels: only the paper is dominant.
    expect(dominant!.colors).toEqual([keys[ranked[0]!]]);
    const result = vectorize(image);
    expect(result.engineUsed).toBe('pixel-exact');
    expect(compare(image, result.svg).edges).toBeGreaterThan(0.98);
  });

  it('snaps anti-aliasing to paper, half or ink: 1-px grey-edged lines on white stay lines', () => {
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

  it('takes a diagram with one translucent colour (graphviz leaves a half-clear edge column) and keeps it as it is', async () => {
    // dot -Tpng draws this 400 x 250 diagram with its last column white at alpha 187.
    const image = await loadPng(join(import.meta.dirname, '..', 'fixtures', 'text', 'accounts.png'));
    const alphas = new Set<number>();
    for (let o = 3; o < image.data.length; o += 4) alphas.add(image.data[o]!);
    expect([...alphas].sort((a, b) => a - b)).toEqual([187, 255]);
    const result = vectorize(image);
    expect(result.engineUsed).toBe('pixel-exact');
    const rendered = renderSvg(result.svg);
    expect(channelsOffSnapped(image, rendered)).toBe(0);
    expect(rendered.data[4 * (image.width - 1) + 3]).toBe(187);
    // Two different translucent colours: soft edges over transparency, an icon or a logo.
    const twoClear = new Uint8Array(image.data);
    twoClear.set([255, 255, 255, 100], 4 * (image.width - 1));
    expect(snapFineDetail({ ...image, data: twoClear })).toBeNull();
  });

  it('renders exactly the snapped image, though layers overlap to shorten outlines', async () => {
    for (const file of ['screenshot-terminal-1300x340.png', 'diagram-states.png']) {
      const image = await loadPng(join(REAL, file));
      expect(channelsOffSnapped(image, renderSvg(vectorize(image).svg))).toBe(0);
    }
  });

  it('paints a glyph fringe under its ink as one shape instead of a ring around it', () => {
    // Dark 3x3 "letters" on white, 2 px apart, each in a 1-px pale frame. The frame's own region
    // is a ring (an outline and a hole); painted under the ink it is one square.
    const image = makeImage(63, 22, (x, y) => {
      const cx = x % 7;
      const cy = y % 7;
      if (cx >= 2 && cx <= 4 && cy >= 2 && cy <= 4) return [20, 20, 20, 255];
      if (cx >= 1 && cx <= 5 && cy >= 1 && cy <= 5) return [190, 190, 190, 255];
      return [255, 255, 255, 255];
    });
    // 40 faint one-pixel colours in the last row: past plain pixel-exact's 32, into snapping.
    for (let i = 0; i < 40; i++) image.data.set([200 + i, 255, 255, 255], 4 * (21 * 63 + i));
    const result = vectorize(image);
    const exact = vectorize(image, { engine: 'pixel-exact' });
    const outlines = (paths: typeof result.paths): number =>
      paths.find((path) => path.color.r === 190)!.commands.filter((c) => c[0] === 'M').length;
    expect(result.engineUsed).toBe('pixel-exact');
    // 27 letters: exact regions are a ring per letter; under the ink, one square each.
    expect(outlines(exact.paths)).toBe(2 * 27);
    expect(outlines(result.paths)).toBe(27);
    expect(result.svg.length).toBeLessThan(exact.svg.length * 0.8);
    // Exact, apart from the faint row (snapped to paper).
    const rendered = renderSvg(result.svg);
    let wrong = 0;
    for (let p = 0; p < 63 * 21; p++)
      for (let c = 0; c < 3; c++) if (rendered.data[4 * p + c] !== image.data[4 * p + c]) wrong++;
    expect(wrong).toBe(0);
  });

  it('leaves photos and gradient icons to the spline engine', async () => {
    for (const file of ['photo-hopper-256x300.png', 'logo-folder-256.png', 'icon-dialog-information-64.png']) {
      expect(vectorize(await loadPng(join(REAL, file))).engineUsed).toBe('spline');
    }
  });

  it("takes a code diff's small text on full-width tinted rows as fine detail, and still leaves a flat logo to spline", async () => {
    // The rows' long straight borders once outnumbered the text's outline pixels: spline, 2 % of the words read.
    const diff = await loadPng(join(import.meta.dirname, '..', 'fixtures', 'text', 'diff.png'));
    const traced = vectorize(diff);
    expect(traced.engineUsed).toBe('pixel-exact');
    expect(channelsOffSnapped(diff, renderSvg(traced.svg))).toBe(0);
    const logo = await loadPng(join(import.meta.dirname, '..', 'fixtures', 'logo-aa-256.png'));
    expect(vectorize(logo).engineUsed).toBe('spline');
  });
});

import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { ciede2000, deltaE } from '../bench/color-difference.ts';
import { renderSvg } from '../bench/quality.ts';
import { textScreens } from '../bench/text-screens.ts';
import { vectorize } from '../src/index.ts';
import { dominantColors, inkPalette } from '../src/ink-palette.ts';

/**
 * A diagram without fonts: boxes in pale fills, 1 px connectors and many small anti-aliased
 * strokes (slanted, so every edge pixel is a different shade) in three rare ink colours.
 */
function diagram() {
  const inks = ['#202124', '#5f6368', '#7b30d0'];
  const strokes: string[] = [];
  for (let i = 0; i < 36; i++) {
    const x = 20 + (i % 30) * 17;
    const y = 120 + Math.floor(i / 30) * 24;
    const ink = inks[i % 3];
    strokes.push(`<path d="M${x} ${y}l4 -9l4 9m-6 -4h5" fill="none" stroke="${ink}" stroke-width="1.3"/>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="540" height="400">
<rect width="540" height="400" fill="#ffffff"/>
<rect x="10.5" y="10.5" width="150" height="60" fill="#e8f0fe" stroke="#202124"/>
<rect x="300.5" y="10.5" width="150" height="60" fill="#fce8e6" stroke="#202124"/>
<path d="M160.5 40.5H300.5" stroke="#202124"/>${strokes.join('')}</svg>`;
  const rendered = new Resvg(svg, { fitTo: { mode: 'original' } }).render();
  return { inks, image: { width: rendered.width, height: rendered.height, data: new Uint8Array(rendered.pixels) } };
}

const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

describe('auto keeps text and line colours true', () => {
  it('keeps every rare ink colour exactly, where dominant colours alone washed it to grey', () => {
    const { inks, image } = diagram();
    const result = vectorize(image);
    expect(result.engineUsed).toBe('pixel-exact');
    const rendered = renderSvg(result.svg);
    for (const ink of inks) {
      const [r, g, b] = rgb(ink);
      const seen: number[][] = [];
      for (let p = 0; p < image.width * image.height; p++) {
        const o = 4 * p;
        if (image.data[o] === r && image.data[o + 1] === g && image.data[o + 2] === b) {
          seen.push([rendered.data[o]!, rendered.data[o + 1]!, rendered.data[o + 2]!]);
        }
      }
      expect(seen.length, ink).toBeGreaterThan(10);
      // Every pixel drawn fully in an ink comes back within a just-noticeable difference of it.
      const worst = Math.max(...seen.map((color) => deltaE(color, [r!, g!, b!])));
      expect(worst, ink).toBeLessThanOrEqual(3);
    }
  });

  it('keeps rare grey text of chromium screenshots true where a commoner fringe shade lies near it', async () => {
    // Dim captions (#59636e), comments (#57606a), log timestamps (#8b949e): a few dozen pixels
    // each, within 10-20 RGB of a fringe shade of the body text; they used to come back as that
    // shade, CIEDE2000 3.2-4.5 away. The landing page's grey body text under a dark banner came back
    // 8.5 away while cores were counted against the banner's colour alone. The terminal page's
    // fringe pixels of #808080, next to no palette colour of their own, came back 6.1 away.
    for (const { name, image, inks } of await textScreens()) {
      const result = vectorize(image);
      expect(result.engineUsed, name).toBe('pixel-exact');
      const rendered = renderSvg(result.svg);
      for (const ink of inks) {
        const [r, g, b] = rgb(ink);
        const seen: number[][] = [];
        for (let o = 0; o < image.data.length; o += 4) {
          if (image.data[o] === r && image.data[o + 1] === g && image.data[o + 2] === b)
            seen.push([rendered.data[o]!, rendered.data[o + 1]!, rendered.data[o + 2]!]);
        }
        if (seen.length < 10) continue;
        const median = [0, 1, 2].map((c) => seen.map((color) => color[c]!).sort((x, y) => x - y)[seen.length >> 1]!);
        expect(deltaE(median, [r!, g!, b!]), `${name} ${ink}`).toBeLessThanOrEqual(3);
      }
    }
  });

  // Three palette colours (paper first) and a rare fourth that lies between two of them, but
  // nearest in RGB to the third, of another hue.
  it.each([
    {
      // #676767 is half-way between dark paper and a light grey ink, but nearest in RGB to the
      // blue ink: it used to become blue.
      case: 'a grey on dark paper goes to the half shade of paper and grey, not to a blue ink',
      keys: [0x1e1e1e, 0xafafaf, 0x367bc7, 0x676767],
      snapsTo: 0x676767,
    },
    {
      // A blue line's pale fringe on white (#d0dae3, a fifth of the way to the ink) is 24.4 from
      // a pale green fill in RGB and 66 from white, but CIEDE2000 16.6 from the green and 9.8 from
      // white, the shade it now takes even though it is further in RGB: it used to become green.
      case: "a blue line's pale fringe goes to the paper, not to a pale green fill nearer in RGB",
      keys: [0xffffff, 0x1f4e79, 0xcfe8cf, 0xd0dae3],
      snapsTo: 0xffffff,
    },
  ])(
    'snaps a blend of two palette colours to their shade, not to a nearest colour of another hue: $case',
    ({ keys, snapsTo }) => {
      const counts = new Int32Array([10000, 500, 500, 10]);
      const ranked = [0, 1, 2, 3];
      const dominant = dominantColors(keys, counts, ranked, 11010)!;
      expect(dominant.colors).toEqual(keys.slice(0, 3));
      const { colors, nearest } = inkPalette(keys, counts, ranked, dominant, new Int32Array(4));
      expect(colors[nearest[3]!]).toBe(snapsTo);
    },
  );

  it('CIEDE2000 agrees with the published test pairs', () => {
    // Sharma, Wu and Dalal (2005), pairs 1 and 7.
    expect(ciede2000([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(ciede2000([50, 0, 0], [50, -1, 2])).toBeCloseTo(2.3669, 4);
  });
});

import { describe, expect, it } from 'vitest';
import { pathData, VectorizeInputError, vectorize } from '../src/index.ts';
import { formatNumber, hexColor } from '../src/svg.ts';

describe('SVG writing', () => {
  it('writes the shortest decimals', () => {
    expect(formatNumber(0.5, 2)).toBe('.5');
    expect(formatNumber(-0.25, 2)).toBe('-.25');
    expect(formatNumber(12, 2)).toBe('12');
    expect(formatNumber(-0, 2)).toBe('0');
    expect(formatNumber(3.1, 0)).toBe('3');
  });

  it('writes relative path data from absolute commands without drift', () => {
    const d = pathData(
      [
        ['M', 1.5, 2],
        ['L', 4.5, 2],
        ['L', 4.5, 0.25],
        ['L', 2, 1],
        ['C', 2, 1.5, 1.25, 2.5, 1.5, 2],
        ['Z'],
        ['M', 3.5, 2.5],
        ['L', 4.5, 2.5],
        ['Z'],
        ['M', 10, 10],
        ['L', 11, 10],
        ['Z'],
      ],
      2,
    );
    // A later move is relative to where the previous sub-path closed when that is shorter:
    // (1.5, 2) to (3.5, 2.5) is m2 .5; (3.5, 2.5) to (10, 10) stays M10 10 (shorter than m6.5 7.5).
    expect(d).toBe('M1.5 2h3v-1.75l-2.5.75c0 .5-.75 1.5-.5 1zm2 .5h1zM10 10h1z');
  });

  it('shortens colours when each channel repeats its digit', () => {
    expect(hexColor({ r: 255, g: 0, b: 51, a: 255 })).toBe('#f03');
    expect(hexColor({ r: 220, g: 30, b: 30, a: 255 })).toBe('#dc1e1e');
  });

  it('rejects pixels that do not match the stated size', () => {
    expect(() => vectorize({ width: 2, height: 2, data: new Uint8Array(15) })).toThrow(VectorizeInputError);
    expect(() => vectorize({ width: 0, height: 2, data: new Uint8Array(0) })).toThrow(/positive integers/);
  });
});

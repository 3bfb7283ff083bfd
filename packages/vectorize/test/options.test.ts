import { describe, expect, it } from 'vitest';
import { renderSvg } from '../bench/quality.ts';
import {
  DEFAULT_PARAMETERS,
  NUMERIC_RANGES,
  PRESET_PARAMETERS,
  PROFILE_PARAMETERS,
  resolveOptions,
  VectorizeOptionError,
  validateOptions,
  vectorize,
} from '../src/index.ts';
import { makeImage, pixelAt, RED, WHITE } from './helpers.ts';

describe('validateOptions', () => {
  for (const [field, range] of Object.entries(NUMERIC_RANGES)) {
    it(`${field} accepts ${range.min} and ${range.max} and rejects values just outside`, () => {
      expect(validateOptions({ [field]: range.min })).toEqual({ [field]: range.min });
      expect(validateOptions({ [field]: range.max })).toEqual({ [field]: range.max });
      const step = range.integer ? 1 : 0.1;
      for (const bad of [range.min - step, range.max + step]) {
        expect(() => validateOptions({ [field]: bad })).toThrow(VectorizeOptionError);
        expect(() => validateOptions({ [field]: bad })).toThrow(
          new RegExp(`^${field} must be .* from ${range.min} to ${range.max}`),
        );
      }
    });
  }

  it('rejects fractions for integer fields and accepts them for length_threshold', () => {
    expect(() => validateOptions({ filter_speckle: 2.5 })).toThrow(/filter_speckle must be an integer/);
    expect(validateOptions({ length_threshold: 4.25 })).toEqual({ length_threshold: 4.25 });
  });

  it('takes numbers written as form text, and nothing looser', () => {
    expect(validateOptions({ color_precision: '7', length_threshold: ' 5.5 ' })).toEqual({
      color_precision: 7,
      length_threshold: 5.5,
    });
    for (const bad of ['7px', '1e1', 'abc', true, {}]) {
      expect(() => validateOptions({ color_precision: bad })).toThrow(
        /color_precision must be an integer from 1 to 32/,
      );
    }
  });

  it('names the allowed values of every enum', () => {
    const cases: [string, string][] = [
      ['engine', 'auto, spline, pixel-exact'],
      ['preset', 'bw, poster, photo'],
      ['profile', 'icon, logo, photo, lineart'],
      ['color_mode', 'color, binary'],
      ['hierarchical', 'stacked, cutout'],
      ['path_simplify', 'spline, polygon, none'],
    ];
    for (const [field, allowed] of cases) {
      const error = (() => {
        try {
          validateOptions({ [field]: 'nope' });
        } catch (e) {
          return e as VectorizeOptionError;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(VectorizeOptionError);
      expect(error?.field).toBe(field);
      expect(error?.message).toBe(`${field} must be one of ${allowed} (got "nope")`);
    }
  });

  it('treats missing and empty values as not set and ignores non-option keys', () => {
    expect(validateOptions({ color_precision: '', preset: undefined, format: 'pdf', file: 'x' })).toEqual({});
  });
});

describe('resolveOptions', () => {
  it('starts from the documented defaults', () => {
    expect(resolveOptions({})).toEqual({ engine: 'auto', ...DEFAULT_PARAMETERS });
  });

  it('applies a preset, then a profile, and explicit fields win over both', () => {
    expect(resolveOptions({ preset: 'photo' })).toMatchObject(PRESET_PARAMETERS.photo);
    expect(resolveOptions({ preset: 'photo', profile: 'lineart' })).toMatchObject({
      ...PRESET_PARAMETERS.photo,
      ...PROFILE_PARAMETERS.lineart,
    });
    const explicit = resolveOptions({ preset: 'photo', profile: 'logo', filter_speckle: 0, color_precision: 3 });
    expect(explicit.filter_speckle).toBe(0);
    expect(explicit.color_precision).toBe(3);
    expect(explicit.layer_difference).toBe(PROFILE_PARAMETERS.logo.layer_difference);
    expect(resolveOptions({ preset: 'bw' }).color_mode).toBe('binary');
  });

  it('vectorize rejects a bad option before tracing', () => {
    const image = makeImage(4, 4, () => WHITE);
    expect(() => vectorize(image, { corner_threshold: 181 })).toThrow(
      /corner_threshold must be an integer from 0 to 180/,
    );
  });
});

describe('every parameter at its bounds traces a picture', () => {
  // A red disc (about 150 px) on white. At every extreme the document covers the frame; the disc
  // survives except where the setting is meant to remove it: speckle 128² px absorbs it (its colour
  // mixes into the background). Red and white differ by 485 summed over channels, above 255.
  const image = makeImage(24, 24, (x, y) => (Math.hypot(x - 11.5, y - 11.5) < 7 ? RED : WHITE));
  const removesDisc = new Set(['filter_speckle=128']);
  for (const [field, range] of Object.entries(NUMERIC_RANGES)) {
    for (const value of [range.min, range.max]) {
      it(`${field} = ${value}`, () => {
        const result = vectorize(image, { engine: 'spline', [field]: value });
        expect(result.svg).toContain('width="24" height="24" viewBox="0 0 24 24"');
        const rendered = renderSvg(result.svg);
        expect(pixelAt(rendered, 0, 0)[3]).toBe(255);
        expect(pixelAt(rendered, 23, 23)[3]).toBe(255);
        const centre = pixelAt(rendered, 12, 12);
        if (removesDisc.has(`${field}=${value}`)) {
          expect(result.paths).toHaveLength(1);
          expect(centre).toEqual(pixelAt(rendered, 0, 0));
          expect(centre[1]).toBeGreaterThan(150);
        } else {
          expect(result.paths).toHaveLength(2);
          expect(centre).toEqual([220, 30, 30, 255]);
          expect(pixelAt(rendered, 1, 1)).toEqual([255, 255, 255, 255]);
        }
      });
    }
  }
});

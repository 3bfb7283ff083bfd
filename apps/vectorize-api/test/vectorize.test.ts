import { encode as encodeBmp } from 'bmp-ts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsafeLeftovers } from '../../../packages/tracer/test/fixtures/svg-attacks.ts';
import { buildApp, encode, flatTestImage, meanAbsoluteDifference, postForm, renderSvg } from './helpers.ts';

const flat = flatTestImage();
let app: FastifyInstance;
let png: Buffer;

beforeAll(async () => {
  app = await buildApp();
  png = await encode(flat, 'png');
});
afterAll(() => app.close());

function bmpOf(image: typeof flat): Buffer {
  // bmp-ts writes ABGR byte order.
  const abgr = Buffer.alloc(image.data.length);
  for (let i = 0; i < image.data.length; i += 4) {
    abgr[i] = 255;
    abgr[i + 1] = image.data[i + 2] as number;
    abgr[i + 2] = image.data[i + 1] as number;
    abgr[i + 3] = image.data[i] as number;
  }
  return encodeBmp({ width: image.width, height: image.height, data: abgr, bitPP: 24 }).data;
}

describe('POST /v1/vectorize', () => {
  it('answers the spec JSON with every metadata field for format svg', async () => {
    const response = await postForm(app, '/v1/vectorize', {}, { bytes: png, name: 'a.png' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.engine_used).toBe('pixel-exact');
    expect(body.metadata).toMatchObject({
      input_size: [flat.width, flat.height],
      svg_byte_size: Buffer.byteLength(body.svg),
      engine_used: 'pixel-exact',
    });
    // Four colours: white, red, blue, green; one path each.
    expect(body.metadata.path_count).toBe(4);
    expect(body.metadata.processing_time_ms).toBeGreaterThan(0);
    expect(body.svg).toMatch(/^<svg /);
  });

  it.each(['jpeg', 'webp', 'gif', 'tiff', 'bmp'] as const)(
    'accepts %s input and traces the same picture',
    async (kind) => {
      const bytes = kind === 'bmp' ? bmpOf(flat) : await encode(flat, kind);
      const response = await postForm(app, '/v1/vectorize', { engine: 'spline' }, { bytes, name: `a.${kind}` });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body.metadata.input_size).toEqual([flat.width, flat.height]);
      // JPEG is lossy, so its traced picture may differ slightly more.
      expect(meanAbsoluteDifference(await renderSvg(body.svg), flat)).toBeLessThan(kind === 'jpeg' ? 4 : 1);
    },
  );

  it.each([
    ['auto', 'true'],
    ['spline', 'false'],
    ['pixel-exact', 'false'],
    ['spline', 'true'],
  ])('traced SVG (engine %s, optimize %s) holds no external reference or script', async (engine, optimize) => {
    const body = (await postForm(app, '/v1/vectorize', { engine, optimize }, { bytes: png })).json();
    expect(unsafeLeftovers(body.svg)).toEqual([]);
  });

  it('optimises the SVG by default; optimize=false returns the tracer output unchanged', async () => {
    const fields = { engine: 'spline', path_precision: '3' };
    const optimised = (await postForm(app, '/v1/vectorize', fields, { bytes: png })).json();
    const raw = (await postForm(app, '/v1/vectorize', { ...fields, optimize: 'false' }, { bytes: png })).json();
    expect(optimised.metadata.svg_byte_size).toBeLessThan(raw.metadata.svg_byte_size);
    expect(raw.svg).toContain('viewBox="0 0 96 64"');
    const none = (
      await postForm(app, '/v1/vectorize', { ...fields, optimize_preset: 'none', multipass: 'true' }, { bytes: png })
    ).json();
    expect(none.svg).toBe(raw.svg);
    expect(meanAbsoluteDifference(await renderSvg(optimised.svg), await renderSvg(raw.svg))).toBeLessThan(0.5);
  });

  it('applies defaults, then the preset, then the profile, then explicit fields', async () => {
    const coloured = /#(?:dc1e28|1e3cc8)/i;
    const trace = async (fields: Record<string, string>) => {
      const response = await postForm(app, '/v1/vectorize', fields, { bytes: png });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    // Preset bw: binary mode, black ink only.
    const bw = await trace({ preset: 'bw' });
    expect(bw.engine_used).toBe('spline');
    expect(bw.svg).not.toMatch(coloured);
    // The logo profile sets colour mode back to colour, over the preset.
    expect((await trace({ preset: 'bw', profile: 'logo' })).svg).toMatch(coloured);
    // An explicit field wins over both.
    expect((await trace({ preset: 'bw', profile: 'logo', color_mode: 'binary' })).svg).not.toMatch(coloured);
  });

  it('says no file was provided when the form has no file', async () => {
    const response = await postForm(app, '/v1/vectorize', { format: 'svg' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/no file was provided/);
  });

  it.each([
    [{ engine: 'fast' }, /engine must be one of auto, spline, pixel-exact/],
    [{ format: 'png' }, /format must be one of svg, pdf, eps/],
    [{ optimize: 'maybe' }, /optimize must be true or false/],
    [{ optimize_preset: 'max' }, /optimize_preset must be one of default, safe, none/],
    [{ multipass: '2' }, /multipass must be true or false/],
    [{ preset: 'sketch' }, /preset must be one of bw, poster, photo/],
    [{ profile: 'art' }, /profile must be one of icon, logo, photo, lineart/],
    [{ color_precision: '0' }, /color_precision must be an integer from 1 to 32/],
    [{ color_precision: '33' }, /color_precision/],
    [{ corner_threshold: '181' }, /corner_threshold must be an integer from 0 to 180/],
    [{ splice_threshold: '101' }, /splice_threshold must be an integer from 0 to 100/],
    [{ filter_speckle: '-1' }, /filter_speckle/],
    [{ color_mode: 'grey' }, /color_mode must be one of color, binary/],
    [{ hierarchical: 'flat' }, /hierarchical must be one of stacked, cutout/],
    [{ path_simplify: 'bezier' }, /path_simplify must be one of spline, polygon, none/],
    [{ layer_difference: 'x' }, /layer_difference/],
    [{ length_threshold: '1' }, /length_threshold/],
    [{ max_iterations: '2.5' }, /max_iterations/],
    [{ path_precision: '9' }, /path_precision/],
    [{ colour_precision: '4' }, /unknown form field "colour_precision"/],
  ])('refuses %o with a 400 naming the field and what is allowed', async (fields, message) => {
    const response = await postForm(app, '/v1/vectorize', fields, { bytes: png });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(message);
  });

  it('accepts every field at the edges of its range', async () => {
    const fields = {
      engine: 'spline',
      color_precision: '32',
      filter_speckle: '0',
      corner_threshold: '180',
      splice_threshold: '0',
      color_mode: 'color',
      hierarchical: 'cutout',
      path_simplify: 'polygon',
      layer_difference: '255',
      length_threshold: '3.5',
      max_iterations: '50',
      path_precision: '0',
    };
    const response = await postForm(app, '/v1/vectorize', fields, { bytes: png });
    expect(response.statusCode, response.body).toBe(200);
  });
});

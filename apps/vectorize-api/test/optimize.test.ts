import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVG_ATTACKS, unsafeLeftovers } from '../../../packages/tracer/test/fixtures/svg-attacks.ts';
import { buildApp, meanAbsoluteDifference, postForm, renderSvg } from './helpers.ts';

let app: FastifyInstance;
let traced: Buffer;

beforeAll(async () => {
  app = await buildApp();
  const logo = readFileSync(new URL('../../../packages/vectorize/fixtures/logo-aa-256.png', import.meta.url));
  const response = await postForm(app, '/v1/vectorize', { engine: 'spline', optimize: 'false' }, { bytes: logo });
  // Editor clutter that every preset except none should strip.
  traced = Buffer.from(response.json().svg.replace('>', '><!-- drawn by hand --><metadata>x</metadata>'));
});
afterAll(() => app.close());

async function optimize(fields: Record<string, string>, bytes = traced) {
  const response = await postForm(app, '/v1/optimize', fields, { bytes, name: 'picture.svg' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('POST /v1/optimize', () => {
  it('answers the spec response with sizes and reduction, and the picture unchanged', async () => {
    const body = await optimize({});
    expect(body.original_size).toBe(traced.length);
    expect(body.optimized_size).toBe(Buffer.byteLength(body.svg));
    expect(body.optimized_size).toBeLessThan(body.original_size);
    expect(body.reduction_pct).toBeCloseTo((100 * (body.original_size - body.optimized_size)) / body.original_size, 2);
    expect(body.svg).not.toContain('drawn by hand');
    const before = await renderSvg(traced.toString());
    expect(meanAbsoluteDifference(await renderSvg(body.svg), before)).toBeLessThan(0.5);
  });

  it('safe removes clutter but leaves path data alone; none returns the input', async () => {
    const safe = await optimize({ preset: 'safe' });
    expect(safe.svg).not.toContain('<metadata>');
    const paths = (svg: string) => svg.match(/ d="[^"]*"/g);
    expect(paths(safe.svg)).toEqual(paths(traced.toString()));
    const none = await optimize({ preset: 'none', multipass: 'true' });
    expect(none.svg).toBe(traced.toString());
    expect(none.reduction_pct).toBe(0);
    expect((await optimize({})).optimized_size).toBeLessThan(safe.optimized_size);
  });

  it('multipass is never larger than one pass, and multipass_iterations bounds it', async () => {
    const single = await optimize({});
    const multi = await optimize({ multipass: 'true' });
    const one = await optimize({ multipass: 'true', multipass_iterations: '1' });
    expect(multi.optimized_size).toBeLessThanOrEqual(single.optimized_size);
    expect(one.svg).toBe(single.svg);
  });

  it.each([
    [{ preset: 'aggressive' }, /preset must be one of default, safe, none/],
    [{ multipass: 'often' }, /multipass must be true or false/],
    [{ multipass_iterations: '0' }, /multipass_iterations must be an integer from 1 to 100/],
    [{ multipass_iterations: '1.5' }, /multipass_iterations/],
    [{ format: 'svg' }, /unknown form field "format"/],
  ])('refuses %o with a 400', async (fields, message) => {
    const response = await postForm(app, '/v1/optimize', fields, { bytes: traced });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(message);
  });

  it('says no file was provided when the form has no file', async () => {
    const response = await postForm(app, '/v1/optimize', { preset: 'safe' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/no file was provided/);
  });

  const laughs = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE svg [',
    '<!ENTITY a "hahahahahahahahahaha">',
    ...Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`,
    ),
    ']>',
    '<svg xmlns="http://www.w3.org/2000/svg"><text>&j;</text></svg>',
  ].join('\n');

  it.each([
    [
      'external entity',
      '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
      /DOCTYPE or entity/,
    ],
    ['billion laughs', laughs, /DOCTYPE or entity/],
    ['malformed XML', '<svg xmlns="http://www.w3.org/2000/svg"><g><rect></svg>', /could not be parsed/],
    [
      'malformed XML, preset none',
      '<svg xmlns="http://www.w3.org/2000/svg"><g><rect></svg>',
      /could not be parsed/,
      { preset: 'none' },
    ],
    ['a document cut short', '<svg ', /could not be parsed: <input>: the document ends before its root element/],
    [
      'a document cut short, preset none',
      '<svg xmlns="http://www.w3.org/2000/svg" ',
      /could not be parsed/,
      { preset: 'none' },
    ],
    ['not SVG at all', 'hello world', /not an SVG document/],
    ['binary data', '\u0089PNG\r\n\u001a\n\u0000\u0000', /not an SVG document/],
  ])(
    'refuses an SVG with %s (400), and stays healthy',
    async (_name, text, message, fields: Record<string, string> = {}) => {
      const response = await postForm(app, '/v1/optimize', fields, { bytes: Buffer.from(text, 'utf8') });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(message);
      expect((await app.inject('/v1/health')).statusCode).toBe(200);
    },
  );

  it.each(['default', 'safe', 'none'])(
    'removes every attack in the corpus with preset %s and says how many it removed',
    async (preset) => {
      for (const [name, text] of Object.entries(SVG_ATTACKS)) {
        const body = await optimize({ preset }, Buffer.from(text));
        expect(body.unsafe_removed, name).toBeGreaterThan(0);
        expect(unsafeLeftovers(body.svg), name).toEqual([]);
      }
    },
  );

  it('reports nothing removed for a clean document', async () => {
    expect((await optimize({})).unsafe_removed).toBe(0);
  });
});

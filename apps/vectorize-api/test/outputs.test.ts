import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import {
  buildApp,
  encode,
  flatTestImage,
  meanAbsoluteDifference,
  pixelsOnWhite,
  postForm,
  renderEps,
  renderPdf,
  renderSvg,
} from './helpers.ts';

const flat = flatTestImage();
const logoPng = readFileSync(new URL('../../../packages/vectorize/fixtures/logo-aa-256.png', import.meta.url));
let app: FastifyInstance;
let flatPng: Buffer;

beforeAll(async () => {
  app = await buildApp();
  flatPng = await encode(flat, 'png');
});
afterAll(() => app.close());

async function vectorize(fields: Record<string, string>, bytes = flatPng) {
  const response = await postForm(app, '/v1/vectorize', fields, { bytes, name: 'picture.png' });
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

describe('outputs render back to the input picture', () => {
  it.each(['auto', 'spline'])('SVG from engine %s renders with resvg like the input', async (engine) => {
    const { svg } = (await vectorize({ engine })).json();
    expect(meanAbsoluteDifference(await renderSvg(svg), flat)).toBeLessThan(1);
  });

  it.each(['auto', 'spline'])('PDF from engine %s renders with MuPDF like the input', async (engine) => {
    const response = await vectorize({ engine, format: 'pdf' });
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(meanAbsoluteDifference(await renderPdf(response.rawPayload), flat)).toBeLessThan(1);
  });

  it.skipIf(missing('gs')).each(['auto', 'spline'])(
    'EPS from engine %s renders with Ghostscript like the input',
    async (engine) => {
      const response = await vectorize({ engine, format: 'eps' });
      expect(response.headers['content-type']).toBe('application/postscript');
      const eps = response.rawPayload.toString('latin1');
      expect(eps.startsWith('%!PS-Adobe-3.0 EPSF-3.0\n')).toBe(true);
      expect(eps).toContain(`%%BoundingBox: 0 0 ${flat.width} ${flat.height}`);
      expect(Math.max(...eps.split('\n').map((line) => line.length))).toBeLessThan(255);
      expect(meanAbsoluteDifference(await renderEps(response.rawPayload), flat)).toBeLessThan(1);
    },
  );

  it('an anti-aliased logo gives the same picture in SVG and PDF, close to the input', async () => {
    const input = await pixelsOnWhite(logoPng);
    const svg = await renderSvg((await vectorize({ engine: 'spline' }, logoPng)).json().svg);
    const pdf = await renderPdf((await vectorize({ engine: 'spline', format: 'pdf' }, logoPng)).rawPayload);
    expect(meanAbsoluteDifference(svg, input)).toBeLessThan(6);
    expect(meanAbsoluteDifference(pdf, svg)).toBeLessThan(2);
  });

  // No renderer of PostScript is on npm in a shape worth depending on: Ghostscript it is.
  it.skipIf(missing('gs'))('the anti-aliased logo in EPS gives the same picture as in SVG', async () => {
    const svg = await renderSvg((await vectorize({ engine: 'spline' }, logoPng)).json().svg);
    const eps = await renderEps((await vectorize({ engine: 'spline', format: 'eps' }, logoPng)).rawPayload);
    expect(meanAbsoluteDifference(eps, svg)).toBeLessThan(2);
  });
});

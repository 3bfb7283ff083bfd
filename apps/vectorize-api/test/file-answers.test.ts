import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentDisposition, formatFromAccept } from '../src/output/file-answer.ts';
import { buildApp, encode, flatTestImage, multipart } from './helpers.ts';

let app: FastifyInstance;
let png: Buffer;

beforeAll(async () => {
  app = await buildApp();
  png = await encode(flatTestImage(), 'png');
});
afterAll(() => app.close());

async function post(fields: Record<string, string>, options: { accept?: string; query?: string; name?: string } = {}) {
  const body = await multipart(fields, { bytes: png, name: options.name ?? 'My Logo.png' });
  const headers: Record<string, string> = { ...body.headers };
  if (options.accept) headers.accept = options.accept;
  return app.inject({ method: 'POST', url: `/v1/vectorize${options.query ?? ''}`, payload: body.payload, headers });
}

describe('files as files', () => {
  it('answers JSON by default, and for */* or a browser-like Accept', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'text/html,application/xhtml+xml,*/*;q=0.8']) {
      const response = await post({}, { accept });
      expect(response.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(response.json().svg).toMatch(/^<svg /);
    }
  });

  it('Accept: image/svg+xml answers the SVG file itself, named after the upload', async () => {
    const json = (await post({})).json();
    const response = await post({}, { accept: 'image/svg+xml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="My Logo.svg"');
    expect(response.headers['x-engine-used']).toBe('pixel-exact');
    expect(response.headers['x-path-count']).toBe(String(json.metadata.path_count));
    expect(response.body).toBe(json.svg);
  });

  it('?format=svg&download=1 (or the download form field) does the same', async () => {
    for (const [fields, query] of [
      [{}, '?format=svg&download=1'],
      [{ download: 'true' }, ''],
    ] as const) {
      const response = await post(fields, { query });
      expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(response.headers['content-disposition']).toBe('attachment; filename="My Logo.svg"');
    }
  });

  it.each([
    ['application/pdf', 'pdf', '%PDF-'],
    ['application/postscript', 'eps', '%!PS-Adobe-3.0 EPSF-3.0'],
  ])('Accept: %s answers the %s file with Content-Disposition', async (accept, format, magic) => {
    const requests: { accept?: string; query?: string; fields?: Record<string, string> }[] = [
      { accept },
      { query: `?format=${format}` },
      { fields: { format } },
    ];
    for (const request of requests) {
      const response = await post(request.fields ?? {}, request);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(accept);
      expect(response.headers['content-disposition']).toBe(`attachment; filename="My Logo.${format}"`);
      expect(response.rawPayload.subarray(0, magic.length).toString()).toBe(magic);
    }
  });

  it('the form field format wins over Accept; a query that contradicts it is a 400', async () => {
    const response = await post({ format: 'svg' }, { accept: 'application/pdf' });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const conflict = await post({ format: 'svg' }, { query: '?format=pdf' });
    expect(conflict.statusCode).toBe(400);
    expect(conflict.json().error).toMatch(/format is "svg" in the form but "pdf" in the query/);
    const bad = await post({}, { query: '?format=png' });
    expect(bad.statusCode).toBe(400);
    expect((await post({}, { query: '?download=maybe' })).statusCode).toBe(400);
  });

  it('refuses a query parameter the route does not take, or one sent twice, naming it', async () => {
    const typo = await post({}, { query: '?downlaod=1' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().error).toBe(
      'querystring.downlaod is not a field of this request; accepted fields: format, download',
    );
    const twice = await post({}, { query: '?download=1&download=0' });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toMatch(/download/);
    const body = await multipart({}, { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    const optimize = await app.inject({ method: 'POST', url: '/v1/optimize?format=svg', ...body });
    expect(optimize.statusCode).toBe(400);
    expect(optimize.json().error).toBe('querystring.format is not a field of this request; accepted fields: download');
  });

  it('names files safely whatever the upload was called', () => {
    expect(contentDisposition('C:\\Users\\me\\scan.final.jpg', 'svg')).toBe('attachment; filename="scan.final.svg"');
    expect(contentDisposition('../../etc/passwd', 'pdf')).toBe('attachment; filename="passwd.pdf"');
    expect(contentDisposition('a"b\r\n.png', 'eps')).toBe('attachment; filename="ab.eps"');
    expect(contentDisposition(undefined, 'svg')).toBe('attachment; filename="vectorized.svg"');
    expect(contentDisposition('logo.svg', 'min.svg')).toBe('attachment; filename="logo.min.svg"');
    expect(contentDisposition(undefined, 'min.svg')).toBe('attachment; filename="optimized.min.svg"');
    expect(contentDisposition('logotipo-ñ.png', 'svg')).toBe(
      `attachment; filename="logotipo-_.svg"; filename*=UTF-8''logotipo-%C3%B1.svg`,
    );
  });

  it('reads Accept by quality and specificity', () => {
    expect(formatFromAccept('image/svg+xml;q=0.5, application/json')).toBeUndefined();
    expect(formatFromAccept('application/json;q=0.5, image/svg+xml')).toBe('svg');
    expect(formatFromAccept('image/*')).toBeUndefined();
    expect(formatFromAccept('application/pdf, image/svg+xml;q=0.9')).toBe('pdf');
    expect(formatFromAccept('image/svg+xml;q=0')).toBeUndefined();
  });

  it('/v1/optimize answers the optimised file for Accept: image/svg+xml or download, JSON otherwise', async () => {
    const drawing = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="url(http://x.example/p#g) #0a0"/></svg>',
    );
    const optimize = async (fields: Record<string, string>, accept?: string, query = '') => {
      const body = await multipart(fields, { bytes: drawing, name: 'drawing.svg' });
      const headers: Record<string, string> = { ...body.headers, ...(accept ? { accept } : {}) };
      return app.inject({ method: 'POST', url: `/v1/optimize${query}`, payload: body.payload, headers });
    };
    const json = await optimize({}, '*/*');
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const { svg, original_size, unsafe_removed } = json.json();
    expect(unsafe_removed).toBe(1);
    for (const response of [
      await optimize({}, 'image/svg+xml'),
      await optimize({}, undefined, '?download=1'),
      await optimize({ download: 'true' }),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(response.headers['content-disposition']).toBe('attachment; filename="drawing.min.svg"');
      expect(response.headers['x-original-size']).toBe(String(original_size));
      expect(response.headers['x-unsafe-removed']).toBe('1');
      expect(response.body).toBe(svg);
    }
    expect((await optimize({ download: 'maybe' })).statusCode).toBe(400);
    const operation = (await app.inject('/v1/openapi.json')).json().paths['/v1/optimize'].post;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['application/json', 'image/svg+xml']);
    expect(operation.requestBody.content['multipart/form-data'].schema.properties.download).toBeDefined();
  });

  it('documents both in the OpenAPI description', async () => {
    const document = (await app.inject('/v1/openapi.json')).json();
    const operation = document.paths['/v1/vectorize'].post;
    expect(Object.keys(operation.responses['200'].content)).toContain('image/svg+xml');
    expect(operation.responses['200'].headers).toHaveProperty('content-disposition');
    const parameters = operation.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`);
    expect(parameters).toEqual(expect.arrayContaining(['query:format', 'query:download', 'header:accept']));
    expect(operation.requestBody.content['multipart/form-data'].schema.properties.download).toBeDefined();
  });
});

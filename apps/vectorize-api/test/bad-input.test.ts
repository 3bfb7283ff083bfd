import { crc32 } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, encode, flatTestImage, postForm } from './helpers.ts';

let app: FastifyInstance;
let png: Buffer;

beforeAll(async () => {
  app = await buildApp({ MAX_UPLOAD_BYTES: '65536', MAX_IMAGE_PIXELS: '1000000' });
  png = await encode(flatTestImage(), 'png');
});
afterAll(() => app.close());

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A well-formed PNG header announcing width × height pixels, followed by almost no data. */
function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function gifClaiming(width: number, height: number): Buffer {
  const header = Buffer.from('GIF89a\0\0\0\0\0\0\0', 'latin1');
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  return Buffer.concat([header, Buffer.from([0x3b])]);
}

function bmpClaiming(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(54);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(54, 10);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(width, 18);
  bytes.writeInt32LE(height, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(24, 28);
  return bytes;
}

/** A little-endian TIFF whose first directory announces width × height and points at no pixel data. */
function tiffClaiming(width: number, height: number): Buffer {
  // tag, type (3 = SHORT, 4 = LONG), value
  const entries: [number, number, number][] = [
    [256, 4, width],
    [257, 4, height],
    [258, 3, 8],
    [259, 3, 1],
    [262, 3, 1],
    [273, 4, 8],
    [277, 3, 1],
    [278, 4, height],
    [279, 4, 0xffffffff],
  ];
  const bytes = Buffer.alloc(8 + 2 + entries.length * 12 + 4);
  bytes.write('II', 0, 'latin1');
  bytes.writeUInt16LE(42, 2);
  bytes.writeUInt32LE(8, 4);
  bytes.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    bytes.writeUInt16LE(tag, at);
    bytes.writeUInt16LE(type, at + 2);
    bytes.writeUInt32LE(1, at + 4);
    if (type === 3) bytes.writeUInt16LE(value, at + 8);
    else bytes.writeUInt32LE(value, at + 8);
  });
  return bytes;
}

/** A real lossless WebP whose VP8L header is rewritten to announce width × height (at most 16384). */
async function webpClaiming(width: number, height: number): Promise<Buffer> {
  const bytes = Buffer.from(await encode(flatTestImage(16, 16), 'webp'));
  const at = bytes.indexOf('VP8L');
  if (at < 0) throw new Error('expected a lossless WebP');
  // After the chunk header and the 0x2f signature: 14 bits width - 1, 14 bits height - 1, 4 more bits.
  const bits = bytes.readUInt32LE(at + 9);
  bytes.writeUInt32LE(((bits & 0xf0000000) | ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14)) >>> 0, at + 9);
  return bytes;
}

async function expectHealthy() {
  const health = await app.inject('/v1/health');
  expect(health.statusCode).toBe(200);
  // And real work still goes through afterwards.
  expect((await postForm(app, '/v1/vectorize', {}, { bytes: png })).statusCode).toBe(200);
}

describe('bad input gets a clear 4xx and the service stays healthy', () => {
  it.each([
    ['a PNG cut in half', () => png.subarray(0, Math.floor(png.length / 2)), 400, /PNG file could not be/],
    [
      'a PNG with a corrupt body',
      () => Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]),
      400,
      /PNG file could not be/,
    ],
    [
      'a JPEG signature with garbage',
      () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]),
      400,
      /JPEG file could not be/,
    ],
    ['a truncated BMP', () => bmpClaiming(100, 100), 400, /BMP file could not be decoded/],
    [
      'a text file',
      () => Buffer.from('just some words, not a picture'),
      415,
      /not a supported image; send PNG, JPEG, WebP, BMP, GIF or TIFF/,
    ],
    ['an SVG', () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 415, /not a supported image/],
  ])('%s', async (_name, bytes, status, message) => {
    const response = await postForm(app, '/v1/vectorize', {}, { bytes: bytes() });
    expect(response.statusCode).toBe(status);
    expect(response.json().error).toMatch(message);
    await expectHealthy();
  });

  it.each([
    ['PNG', () => pngClaiming(100_000, 100_000)],
    ['GIF', () => gifClaiming(65_535, 65_535)],
    ['BMP', () => bmpClaiming(50_000, -50_000)],
    ['TIFF', () => tiffClaiming(100_000, 100_000)],
    ['WebP', () => webpClaiming(16_000, 16_000)],
  ])(
    'a %s whose header claims hundreds of millions of pixels is refused from its header (413)',
    async (_kind, bytes) => {
      const response = await postForm(app, '/v1/vectorize', {}, { bytes: await bytes() });
      expect(response.statusCode).toBe(413);
      expect(response.json().error).toMatch(/pixels; the limit is 1000000 pixels/);
      await expectHealthy();
    },
  );

  it.each(['webp', 'gif', 'tiff'] as const)('a %s cut in half is a 400 that names the format', async (format) => {
    const whole = await encode(flatTestImage(), format);
    const response = await postForm(
      app,
      '/v1/vectorize',
      {},
      { bytes: whole.subarray(0, Math.floor(whole.length / 2)) },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(new RegExp(`${format.toUpperCase()} file could not be`, 'i'));
    await expectHealthy();
  });

  it('a real image over the configured pixel limit is refused (413)', async () => {
    const large = await encode(flatTestImage(1200, 1000), 'png');
    const response = await postForm(app, '/v1/vectorize', {}, { bytes: large });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe('the image is 1200×1000 = 1200000 pixels; the limit is 1000000 pixels');
  });

  it.each(['/v1/vectorize', '/v1/optimize'])('an upload over MAX_UPLOAD_BYTES to %s is 413', async (url) => {
    const response = await postForm(app, url, {}, { bytes: Buffer.alloc(70_000, 0x20) });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe('the uploaded file is larger than the limit of 65536 bytes');
    await expectHealthy();
  });

  it('a body that is not multipart is 415; a broken multipart body is 400', async () => {
    const json = await app.inject({ method: 'POST', url: '/v1/vectorize', payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    expect(json.json().error).toMatch(/multipart\/form-data/);
    const broken = await app.inject({
      method: 'POST',
      url: '/v1/vectorize',
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
      payload: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\u0089PNG',
    });
    expect(broken.statusCode).toBe(400);
    await expectHealthy();
  });

  it('a file sent under another field name, or two files, is refused', async () => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(png)]), 'a.png');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const response = await app.inject({
      method: 'POST',
      url: '/v1/vectorize',
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type') as string },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/form field "file"/);
  });
});

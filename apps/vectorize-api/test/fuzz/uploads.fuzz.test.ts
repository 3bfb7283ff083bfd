import {
  assertReplayable,
  fuzzRoutes,
  fuzzSettings,
  type JsonSchema,
  judge,
  publicRoutes,
  shapedBy,
} from '@trove/http-fuzz';
import { encode as encodeBmp } from 'bmp-ts';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { optimizeFormSchema } from '../../src/schemas/optimize.ts';
import { vectorizeFormSchema } from '../../src/schemas/vectorize.ts';
import { buildApp, encode, flatTestImage, multipart } from '../helpers.ts';

// Uploads with their headers broken (dimensions, chunk lengths, palette sizes sit in the first
// bytes of every format) and form fields generated from the same schemas that feed OpenAPI.
let app: FastifyInstance;
const images: { format: string; bytes: Buffer }[] = [];
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30"><rect x="2" y="2" width="20" height="10" fill="#c00"/><path d="M5 20 L35 20 L20 28 Z" fill="blue"/></svg>',
);

beforeAll(async () => {
  app = await buildApp();
  const image = flatTestImage(24, 16);
  for (const format of ['png', 'jpeg', 'webp', 'gif', 'tiff'] as const)
    images.push({ format, bytes: Buffer.from(await encode(image, format)) });
  const abgr = Buffer.alloc(image.data.length);
  for (let i = 0; i < image.data.length; i += 4)
    abgr.set([255, image.data[i + 2] ?? 0, image.data[i + 1] ?? 0, image.data[i] ?? 0], i);
  images.push({
    format: 'bmp',
    bytes: Buffer.from(encodeBmp({ width: image.width, height: image.height, data: abgr, bitPP: 24 }).data),
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** Header fields overwritten with edge values, truncation and bit flips. */
function broken(original: Buffer, headerBytes = 64): fc.Arbitrary<{ bytes: Buffer; how: string }> {
  const edge = fc.constantFrom(0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, 0x7fffffff, 0xffffffff);
  return fc.oneof(
    fc
      .array(fc.tuple(fc.nat({ max: Math.min(headerBytes, original.length - 4) }), edge, fc.boolean()), {
        minLength: 1,
        maxLength: 4,
      })
      .map((writes) => {
        const bytes = Buffer.from(original);
        for (const [at, value, big] of writes) {
          if (value > 0xffff) big ? bytes.writeUInt32BE(value, at) : bytes.writeUInt32LE(value, at);
          else if (value > 0xff) big ? bytes.writeUInt16BE(value, at) : bytes.writeUInt16LE(value, at);
          else bytes[at] = value;
        }
        return { bytes, how: `header writes ${JSON.stringify(writes)}` };
      }),
    fc.nat({ max: original.length - 1 }).map((n) => ({ bytes: original.subarray(0, n), how: `truncated at ${n}` })),
    fc
      .array(fc.tuple(fc.nat({ max: original.length - 1 }), fc.integer({ min: 1, max: 255 })), {
        minLength: 1,
        maxLength: 6,
      })
      .map((flips) => {
        const bytes = Buffer.from(original);
        for (const [at, x] of flips) bytes[at] = (bytes[at] ?? 0) ^ x;
        return { bytes, how: `bit flips ${JSON.stringify(flips)}` };
      }),
  );
}

/** Form fields shaped by a route's form schema (the file aside), as multipart text. */
function formFields(schema: JsonSchema): fc.Arbitrary<Record<string, string>> {
  const { file: _file, ...properties } = schema.properties ?? {};
  return shapedBy({ type: 'object', properties }, { known: fc.constantFrom('auto', 'svg', 'default') }).map((value) =>
    Object.fromEntries(
      Object.entries(value && typeof value === 'object' ? value : {}).map(([k, v]) => [
        k,
        typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
      ]),
    ),
  );
}

async function send(
  url: string,
  fields: Record<string, string>,
  bytes: Buffer,
  how: string,
  check: (json: { svg?: unknown }) => boolean,
) {
  const form = await multipart(fields, { bytes, name: 'upload' });
  const res = await app.inject({ method: 'POST', url, ...form });
  const problem = judge(res);
  if (problem) throw new Error(`${url} ${how} fields ${JSON.stringify(fields).slice(0, 200)}: ${problem}`);
  if (
    res.statusCode === 200 &&
    String(res.headers['content-type']).startsWith('application/json') &&
    !check(res.json())
  )
    throw new Error(`${url} ${how}: answered 200 without an SVG`);
}

const isSvg = (json: { svg?: unknown }) => typeof json.svg === 'string' && json.svg.includes('<svg');

describe('vectorize-api under hostile uploads', () => {
  it('every route answers schema-shaped hostile requests without 5xx', { timeout: 600_000 }, async () => {
    await fuzzRoutes({ app, known: ['svg', 'auto'] }, publicRoutes(app));
  });

  it('images with broken headers in every format get a 4xx or a real trace', { timeout: 600_000 }, async () => {
    const property = fc.asyncProperty(
      fc
        .constantFrom(...images)
        .chain((image) => broken(image.bytes).map((b) => ({ ...b, how: `${image.format} ${b.how}` }))),
      formFields(vectorizeFormSchema as unknown as JsonSchema),
      async (image, fields) => send('/v1/vectorize', fields, image.bytes, image.how, isSvg),
    );
    await assertReplayable(property, fuzzSettings.runsPerRoute * 8, 'POST /v1/vectorize uploads');
  });

  it('broken SVGs get a 4xx or an optimised SVG', { timeout: 600_000 }, async () => {
    const property = fc.asyncProperty(
      broken(SVG, SVG.length),
      formFields(optimizeFormSchema as unknown as JsonSchema),
      async (svg, fields) => send('/v1/optimize', fields, svg.bytes, svg.how, isSvg),
    );
    await assertReplayable(property, fuzzSettings.runsPerRoute * 4, 'POST /v1/optimize uploads');
  });
});

import { execFileSync } from 'node:child_process';
import { Resvg } from '@resvg/resvg-js';
import { createLogger, createServer } from '@trove/service-kit';
import type { RgbaImage } from '@trove/vectorize';
import type { FastifyInstance } from 'fastify';
import * as mupdf from 'mupdf';
import sharp from 'sharp';
import { buildVectorizeApp, vectorizeApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import type { Tracer } from '../src/tracing/tracer.ts';

export const logger = createLogger({ service: 'vectorize-api', level: 'silent', format: 'json' });

/** The app as a client meets it once /readyz says ready (its tracing threads warmed up). */
export async function buildApp(env: Record<string, string> = {}, tracer?: Tracer): Promise<FastifyInstance> {
  const config = readConfig({ TRACE_WORKERS: '1', ...env });
  if (!tracer) return untilReady(await buildVectorizeApp(config, logger));
  const server = createServer({ logger });
  await server.register(vectorizeApp, { config, tracer });
  return server;
}

export async function untilReady(app: FastifyInstance, timeoutMs = 60_000): Promise<FastifyInstance> {
  const deadline = Date.now() + timeoutMs;
  while ((await app.inject('/readyz')).statusCode !== 200) {
    if (Date.now() > deadline) throw new Error('vectorize-api did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return app;
}

/** A multipart body built by the platform's own FormData, as a real client would send it. */
export async function multipart(fields: Record<string, string>, file?: { bytes: Buffer; name?: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name ?? 'upload');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') as string },
  };
}

export async function postForm(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  file?: { bytes: Buffer; name?: string },
) {
  const body = await multipart(fields, file);
  return app.inject({ method: 'POST', url, ...body });
}

/**
 * A flat test picture: white background, a red block, a blue bar and a dark green square.
 * Few colours and axis-aligned edges, so every renderer should give it back almost exactly.
 */
export function flatTestImage(width = 96, height = 64): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let color = [255, 255, 255];
      if (x >= 8 && x < 40 && y >= 8 && y < 40) color = [220, 30, 40];
      if (x >= 48 && x < 88 && y >= 20 && y < 32) color = [30, 60, 200];
      if (x >= 56 && x < 72 && y >= 40 && y < 56) color = [20, 110, 40];
      data.set([...color, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

export function encode(image: RgbaImage, format: 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff'): Promise<Buffer> {
  const input = sharp(Buffer.from(image.data), { raw: { width: image.width, height: image.height, channels: 4 } });
  if (format === 'jpeg') return input.jpeg({ quality: 95 }).toBuffer();
  if (format === 'webp') return input.webp({ lossless: true }).toBuffer();
  // sharp writes JPEG-compressed TIFF by default; LZW keeps the test picture exact.
  if (format === 'tiff') return input.tiff({ compression: 'lzw' }).toBuffer();
  return input.toFormat(format).toBuffer();
}

/** Any PNG/PPM bytes → RGBA composited on white (the renderers and the input are compared that way). */
export async function pixelsOnWhite(bytes: Buffer): Promise<RgbaImage> {
  const { data, info } = await sharp(bytes)
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

export function renderSvg(svg: string): Promise<RgbaImage> {
  return pixelsOnWhite(new Resvg(svg, { fitTo: { mode: 'original' } }).render().asPng());
}

/**
 * Renders page 1 of a PDF at 72 dpi (one pixel per PDF point) with MuPDF compiled to WebAssembly:
 * an independent renderer that needs nothing outside npm (poppler's pdftoppm did the same job).
 */
export function renderPdf(pdf: Buffer): Promise<RgbaImage> {
  const document = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    const page = document.loadPage(0);
    // No alpha: the page is painted on white first, as a viewer (and pdftoppm) shows it.
    const pixmap = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true);
    return pixelsOnWhite(Buffer.from(pixmap.asPNG()));
  } finally {
    document.destroy();
  }
}

/** Renders an EPS with Ghostscript, cropped to its bounding box, at 72 dpi. */
export function renderEps(eps: Buffer): Promise<RgbaImage> {
  const png = execFileSync(
    'gs',
    [
      '-q',
      '-dSAFER',
      '-dBATCH',
      '-dNOPAUSE',
      '-dEPSCrop',
      '-sDEVICE=png16m',
      '-r72',
      '-dTextAlphaBits=4',
      '-dGraphicsAlphaBits=4',
      '-sOutputFile=-',
      '-',
    ],
    { input: eps, maxBuffer: 64 << 20 },
  );
  return pixelsOnWhite(png);
}

/** Mean absolute difference per RGB channel (0–255) between two same-sized images. */
export function meanAbsoluteDifference(a: RgbaImage, b: RgbaImage): number {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`sizes differ: ${a.width}×${a.height} against ${b.width}×${b.height}`);
  }
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    for (let c = 0; c < 3; c++) sum += Math.abs((a.data[i + c] as number) - (b.data[i + c] as number));
  }
  return sum / ((a.data.length / 4) * 3);
}

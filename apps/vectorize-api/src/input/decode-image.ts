import { badRequest, HttpError, payloadTooLarge } from '@trove/service-kit';
import type { RgbaImage } from '@trove/vectorize';
import { decode as decodeBmp } from 'bmp-ts';
import sharp from 'sharp';
import { ACCEPTED_KINDS, type ImageKind, sniffImageKind } from './sniff.ts';

// Decoded pixels stay in memory only; sharp's cache would otherwise keep recent inputs around.
sharp.cache(false);

export const unsupportedMediaType = (message: string) => new HttpError(415, message);

interface Dimensions {
  width: number;
  height: number;
}

/** BMP width and height from its header (sharp does not read BMP). Height is negative for top-down files. */
function bmpDimensions(bytes: Buffer): Dimensions {
  if (bytes.length < 26) throw badRequest('the BMP file is truncated: its header is incomplete');
  const headerSize = bytes.readUInt32LE(14);
  if (headerSize === 12) return { width: bytes.readUInt16LE(18), height: bytes.readUInt16LE(20) };
  return { width: Math.abs(bytes.readInt32LE(18)), height: Math.abs(bytes.readInt32LE(22)) };
}

/** GIF logical screen size: bytes 6–9 of the header, readable even when the rest is junk. */
function gifDimensions(bytes: Buffer): Dimensions {
  if (bytes.length < 10) throw badRequest('the GIF file is truncated: its header is incomplete');
  return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

async function headerDimensions(kind: ImageKind, bytes: Buffer, maxPixels: number): Promise<Dimensions> {
  if (kind === 'bmp') return bmpDimensions(bytes);
  // A GIF's screen size comes first, so a bomb is refused even before sharp looks at its frames.
  if (kind === 'gif') checkPixelLimit(kind, gifDimensions(bytes), maxPixels);
  try {
    // metadata() reads the header only; no pixels are decoded yet.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    return { width: meta.width ?? 0, height: meta.height ?? 0 };
  } catch (error) {
    throw badRequest(`the ${kind.toUpperCase()} file could not be read: ${(error as Error).message}`);
  }
}

function checkPixelLimit(kind: ImageKind, { width, height }: Dimensions, maxPixels: number): void {
  if (!(width >= 1 && height >= 1)) {
    throw badRequest(`the ${kind.toUpperCase()} header gives no valid size (${width}×${height})`);
  }
  if (width * height > maxPixels) {
    throw payloadTooLarge(
      `the image is ${width}×${height} = ${width * height} pixels; the limit is ${maxPixels} pixels`,
    );
  }
}

function decodeBmpPixels(bytes: Buffer, expected: Dimensions): RgbaImage {
  let bmp: ReturnType<typeof decodeBmp>;
  try {
    bmp = decodeBmp(bytes, { toRGBA: true });
  } catch (error) {
    throw badRequest(`the BMP file could not be decoded: ${(error as Error).message}`);
  }
  const { width, height, data } = bmp;
  if (width !== expected.width || height !== expected.height || data.length !== width * height * 4) {
    throw badRequest('the BMP file could not be decoded: it is truncated or malformed');
  }
  const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length);
  // Most BMPs carry no alpha channel; the decoder leaves 0 there, which would read as transparent.
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  return { width, height, data: pixels };
}

/**
 * Raw upload → RGBA pixels. The format is recognised from its first bytes (415 otherwise), the
 * size is read from the header and checked against `maxPixels` before anything is decoded (413),
 * and a corrupt or truncated file is a 400. Everything happens in memory.
 */
export async function decodeImage(bytes: Buffer, maxPixels: number): Promise<RgbaImage> {
  const kind = sniffImageKind(bytes);
  if (!kind) throw unsupportedMediaType(`the file is not a supported image; send ${ACCEPTED_KINDS}`);
  const dimensions = await headerDimensions(kind, bytes, maxPixels);
  checkPixelLimit(kind, dimensions, maxPixels);
  if (kind === 'bmp') return decodeBmpPixels(bytes, dimensions);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'warning' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (error) {
    throw badRequest(`the ${kind.toUpperCase()} file could not be decoded: ${(error as Error).message}`);
  }
}

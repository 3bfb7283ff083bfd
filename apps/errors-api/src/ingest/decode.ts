import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { badRequest, HttpError, payloadTooLarge } from '@trove/service-kit';

type Inflater = (body: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>;

/**
 * Bodies up to this size are inflated on the event loop: a typical gzipped event inflates in well
 * under a millisecond, less than the hop through the libuv pool costs. Bigger ones go to the pool.
 */
const INLINE_BELOW_BYTES = 128 * 1024;
/** Inline inflation stops here (a few ms of work at most); anything bigger is redone on the pool. */
const INLINE_OUTPUT_BYTES = 4 * 1024 * 1024;

const inline =
  (sync: (body: Buffer, options: zlib.ZlibOptions) => Buffer, pooled: Inflater): Inflater =>
  async (body, options) => {
    const limit = options.maxOutputLength ?? Number.POSITIVE_INFINITY;
    if (body.length >= INLINE_BELOW_BYTES) return pooled(body, options);
    try {
      return sync(body, { ...options, maxOutputLength: Math.min(limit, INLINE_OUTPUT_BYTES) });
    } catch (err) {
      if (limit > INLINE_OUTPUT_BYTES && isTooLarge(err)) return pooled(body, options);
      throw err;
    }
  };

const gunzip = inline(zlib.gunzipSync, promisify(zlib.gunzip));
const inflate = inline(zlib.inflateSync, promisify(zlib.inflate));
const inflateRaw = inline(zlib.inflateRawSync, promisify(zlib.inflateRaw));
const brotli = inline(zlib.brotliDecompressSync, promisify(zlib.brotliDecompress) as Inflater);

function isTooLarge(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError;
}

async function inflateWithin(inflater: Inflater, body: Buffer, maxBytes: number, name: string): Promise<Buffer> {
  try {
    // maxOutputLength stops zlib as soon as the output passes the limit, so a bomb costs little.
    return await inflater(body, { maxOutputLength: maxBytes });
  } catch (err) {
    if (isTooLarge(err)) throw payloadTooLarge(`body inflates past the limit of ${maxBytes} bytes`);
    throw badRequest(`body is not valid ${name} data`);
  }
}

function isZlibHeader(data: Buffer): boolean {
  if (data.length < 2) return false;
  const [first, second] = [data[0] as number, data[1] as number];
  return (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;
}

/** Undoes the Content-Encoding of an ingest body, refusing anything that inflates past maxBytes. */
export async function decodeBody(body: Buffer, encoding: string | undefined, maxBytes: number): Promise<Buffer> {
  const codings = (encoding ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity');
  let out = body;
  // Codings are listed in the order they were applied, so they are undone last first.
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') out = await inflateWithin(gunzip, out, maxBytes, 'gzip');
    else if (coding === 'br') out = await inflateWithin(brotli, out, maxBytes, 'brotli');
    else if (coding === 'deflate') {
      // "deflate" is zlib-wrapped by the standard but raw in some clients; accept both.
      const wrapped = isZlibHeader(out);
      out = await inflateWithin(wrapped ? inflate : inflateRaw, out, maxBytes, 'deflate');
    } else throw new HttpError(415, `unsupported Content-Encoding "${coding}"; use gzip, deflate or br`);
  }
  if (out.length > maxBytes) throw payloadTooLarge(`body is larger than the limit of ${maxBytes} bytes`);
  return out;
}

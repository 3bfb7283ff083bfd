import { badRequest } from '@trove/service-kit';
import { decodeBody } from '../../ingest/decode.ts';

/**
 * The legacy store endpoint takes one JSON event. Old raven clients send it as base64 of deflated
 * JSON instead; anything that does not start like JSON is tried that way.
 */
export async function decodeStoreBody(body: Buffer, maxBytes: number): Promise<Buffer> {
  const text = body.toString('latin1').trimStart();
  if (text.startsWith('{') || text === '') return body;
  if (!/^[A-Za-z0-9+/=\s_-]+$/.test(text)) throw badRequest('store body must be a JSON event');
  return decodeBody(Buffer.from(text, 'base64'), 'deflate', maxBytes);
}

import { badRequest } from '@trove/service-kit';

/** One item of an envelope: its JSON header and its payload bytes (which may be binary). */
export interface EnvelopeItem {
  header: Record<string, unknown> & { type: string };
  payload: Buffer;
}

export interface Envelope {
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

const NEWLINE = 0x0a;

function parseJsonObject(bytes: Buffer, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw badRequest(`envelope ${what} is not valid JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`envelope ${what} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

function lineEnd(body: Buffer, from: number): number {
  const end = body.indexOf(NEWLINE, from);
  return end === -1 ? body.length : end;
}

/**
 * Parses the envelope format on bytes, never on a decoded string: an item with a `length` owns
 * exactly that many bytes (attachments may hold newlines or invalid UTF-8); without one it runs to
 * the next newline. Anything that does not add up is refused whole, so nothing is half-stored.
 */
export function parseEnvelope(body: Buffer): Envelope {
  if (body.length === 0) throw badRequest('envelope is empty');
  const headerEnd = lineEnd(body, 0);
  const header = parseJsonObject(body.subarray(0, headerEnd), 'header');
  const items: EnvelopeItem[] = [];
  let pos = headerEnd + 1;
  while (pos < body.length) {
    const itemHeaderEnd = lineEnd(body, pos);
    const line = body.subarray(pos, itemHeaderEnd);
    // Blank lines between items (or a trailing newline) carry nothing.
    if (line.toString('utf8').trim() === '') {
      pos = itemHeaderEnd + 1;
      continue;
    }
    const itemHeader = parseJsonObject(line, `item ${items.length + 1} header`);
    if (typeof itemHeader.type !== 'string' || itemHeader.type === '') {
      throw badRequest(`envelope item ${items.length + 1} header lacks a type`);
    }
    pos = itemHeaderEnd + 1;
    let payload: Buffer;
    const { length } = itemHeader;
    if (length !== undefined && length !== null) {
      if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
        throw badRequest(`envelope item ${items.length + 1} length must be a whole number of bytes`);
      }
      if (pos + length > body.length) {
        throw badRequest(
          `envelope item ${items.length + 1} claims ${length} bytes but only ${Math.max(0, body.length - pos)} follow`,
        );
      }
      payload = body.subarray(pos, pos + length);
      pos += length;
      if (pos < body.length && body[pos] !== NEWLINE) {
        throw badRequest(`envelope item ${items.length + 1} is longer than its length of ${length} bytes`);
      }
      pos += 1;
    } else {
      const end = lineEnd(body, pos);
      payload = body.subarray(pos, end);
      pos = end + 1;
    }
    items.push({ header: itemHeader as EnvelopeItem['header'], payload });
  }
  return { header, items };
}

/**
 * Hand-written wire codecs for the embedder's hot messages: the texts of an EmbedRequest and the
 * vectors of an EmbedResponse. protobuf-es writes a packed float with two allocations of its own
 * (32 vectors of 100 floats took ~5 ms to encode, several times the model's time for them); these
 * write the same bytes into one buffer and read floats straight from it. Both sides use them:
 * GrpcEmbedder (client) and apps/embedder (server); anything else about the messages is the same.
 */
import type { MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import type { MessageCodec } from '@trove/grpc-kit';
import { EmbedRequestSchema, EmbedResponseSchema } from '@trove/proto/embedder/v1';

type ResponseInit = MessageInitShape<typeof EmbedResponseSchema>;
type Response = MessageShape<typeof EmbedResponseSchema>;

const LEN = 2;
const tag = (field: number, wireType: number) => (field << 3) | wireType;

function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

function writeVarint(buf: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    buf[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  buf[at++] = n;
  return at;
}

/** EmbedRequest: texts (field 1), model (field 2), purpose (field 3), as protobuf-es writes them. */
export function encodeEmbedRequest(message: MessageInitShape<typeof EmbedRequestSchema>): Uint8Array {
  const texts = message.texts ?? [];
  const lengths = texts.map((text) => Buffer.byteLength(text));
  const modelBytes = message.model ? Buffer.byteLength(message.model) : 0;
  let size = 0;
  for (const n of lengths) size += 1 + varintSize(n) + n;
  if (modelBytes) size += 1 + varintSize(modelBytes) + modelBytes;
  const purpose = message.purpose ?? 0;
  if (purpose) size += 2;
  const buf = Buffer.allocUnsafe(size);
  let at = 0;
  texts.forEach((text, i) => {
    buf[at++] = tag(1, LEN);
    at = writeVarint(buf, at, lengths[i] as number);
    at += buf.write(text, at, 'utf8');
  });
  if (modelBytes) {
    buf[at++] = tag(2, LEN);
    at = writeVarint(buf, at, modelBytes);
    at += buf.write(message.model as string, at, 'utf8');
  }
  if (purpose) {
    buf[at++] = tag(3, 0);
    buf[at++] = purpose;
  }
  return buf;
}

/** EmbedResponse: each vector as a Vector message holding packed floats, then model, dimensions, normalized. */
export function encodeEmbedResponse(message: ResponseInit): Uint8Array {
  const vectors = message.vectors ?? [];
  const modelBytes = message.model ? Buffer.byteLength(message.model) : 0;
  let size = 0;
  for (const vector of vectors) {
    const n = vector.values?.length ?? 0;
    const inner = n === 0 ? 0 : 1 + varintSize(n * 4) + n * 4;
    size += 1 + varintSize(inner) + inner;
  }
  if (modelBytes) size += 1 + varintSize(modelBytes) + modelBytes;
  if (message.dimensions) size += 1 + varintSize(message.dimensions);
  if (message.normalized) size += 2;
  const buf = Buffer.allocUnsafe(size);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = 0;
  for (const vector of vectors) {
    const values = vector.values ?? [];
    const n = values.length;
    buf[at++] = tag(1, LEN);
    if (n === 0) {
      buf[at++] = 0;
      continue;
    }
    at = writeVarint(buf, at, 1 + varintSize(n * 4) + n * 4);
    buf[at++] = tag(1, LEN);
    at = writeVarint(buf, at, n * 4);
    for (let i = 0; i < n; i++, at += 4) view.setFloat32(at, values[i] as number, true);
  }
  if (modelBytes) {
    buf[at++] = tag(2, LEN);
    at = writeVarint(buf, at, modelBytes);
    at += buf.write(message.model as string, at, 'utf8');
  }
  if (message.dimensions) {
    buf[at++] = tag(3, 0);
    at = writeVarint(buf, at, message.dimensions);
  }
  if (message.normalized) {
    buf[at++] = tag(4, 0);
    buf[at++] = 1;
  }
  return buf;
}

/** A forward-only reader over one message's bytes; `end` bounds a nested message. */
class Reader {
  at = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly view: DataView,
    readonly end: number,
  ) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.end) throw new Error('EmbedResponse: a varint runs past the end of the message');
      const byte = this.bytes[this.at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }

  /** Length of a LEN field and where it ends, checked against the message. */
  span(): number {
    const length = this.varint();
    if (this.at + length > this.end) throw new Error('EmbedResponse: a field runs past the end of the message');
    return this.at + length;
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.at += 8;
    else if (wireType === 2) this.at = this.span();
    else if (wireType === 5) this.at += 4;
    else throw new Error(`EmbedResponse: wire type ${wireType} is not supported`);
    if (this.at > this.end) throw new Error('EmbedResponse: a field runs past the end of the message');
  }
}

function readVector(r: Reader, end: number): number[] {
  let values: number[] = [];
  while (r.at < end) {
    const key = r.varint();
    if (key === tag(1, LEN)) {
      const stop = r.span();
      if ((stop - r.at) % 4 !== 0) throw new Error('EmbedResponse: packed floats are not a multiple of 4 bytes');
      // The usual case, one packed run: sized up front rather than grown.
      const run = new Array<number>((stop - r.at) / 4);
      for (let i = 0; r.at < stop; r.at += 4, i++) run[i] = r.view.getFloat32(r.at, true);
      values = values.length === 0 ? run : values.concat(run);
    } else if (key === tag(1, 5)) {
      // Parsers must accept unpacked repeated floats too.
      if (r.at + 4 > end) throw new Error('EmbedResponse: a float runs past the end of its vector');
      values.push(r.view.getFloat32(r.at, true));
      r.at += 4;
    } else {
      r.skip(key & 7);
    }
  }
  return values;
}

export function decodeEmbedResponse(bytes: Uint8Array): Response {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r = new Reader(bytes, view, bytes.length);
  const message: Response = {
    $typeName: 'trove.embedder.v1.EmbedResponse',
    vectors: [],
    model: '',
    dimensions: 0,
    normalized: false,
  };
  while (r.at < r.end) {
    const key = r.varint();
    if (key === tag(1, LEN)) {
      const end = r.span();
      message.vectors.push({ $typeName: 'trove.embedder.v1.Vector', values: readVector(r, end) });
      r.at = end;
    } else if (key === tag(2, LEN)) {
      const end = r.span();
      message.model = Buffer.from(bytes.buffer, bytes.byteOffset + r.at, end - r.at).toString('utf8');
      r.at = end;
    } else if (key === tag(3, 0)) {
      message.dimensions = r.varint() % 2 ** 32;
    } else if (key === tag(4, 0)) {
      message.normalized = r.varint() !== 0;
    } else {
      r.skip(key & 7);
    }
  }
  return message;
}

export const embedRequestCodec: MessageCodec<typeof EmbedRequestSchema> = {
  schema: EmbedRequestSchema,
  encode: encodeEmbedRequest,
};

export const embedResponseCodec: MessageCodec<typeof EmbedResponseSchema> = {
  schema: EmbedResponseSchema,
  encode: encodeEmbedResponse,
  decode: decodeEmbedResponse,
};

/** The codecs both ends of the embedder service use. */
export const EMBEDDER_CODECS = [embedRequestCodec, embedResponseCodec] as const;

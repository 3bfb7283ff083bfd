/**
 * The hand-written embedder codecs against protobuf-es: the same bytes out, the same messages in,
 * for any texts and vectors, and a clear error for bytes that are not an EmbedResponse.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { EmbedRequestSchema, EmbedResponseSchema, Purpose } from '@trove/proto/embedder/v1';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEmbedResponse, encodeEmbedRequest, encodeEmbedResponse } from '../src/index.ts';

const float32 = fc.float({ noDefaultInfinity: false });
const response = fc.record({
  vectors: fc.array(fc.record({ values: fc.array(float32, { maxLength: 130 }) }), { maxLength: 20 }),
  model: fc.string({ unit: 'binary', maxLength: 40 }),
  dimensions: fc.nat({ max: 2 ** 32 - 1 }),
  normalized: fc.boolean(),
});

describe('embedder codecs', () => {
  it('encode an EmbedRequest byte for byte as protobuf-es does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 30 }),
        fc.constantFrom(Purpose.UNSPECIFIED, Purpose.DOCUMENT, Purpose.QUERY),
        (texts, model, purpose) => {
          const ours = encodeEmbedRequest({ texts, model, purpose });
          expect(Buffer.from(ours)).toEqual(
            Buffer.from(toBinary(EmbedRequestSchema, create(EmbedRequestSchema, { texts, model, purpose }))),
          );
          expect(fromBinary(EmbedRequestSchema, ours)).toMatchObject({ texts, purpose });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('encode an EmbedResponse as protobuf-es does and read back what protobuf-es writes', () => {
    fc.assert(
      fc.property(response, (message) => {
        const reference = toBinary(EmbedResponseSchema, create(EmbedResponseSchema, message));
        expect(Buffer.from(encodeEmbedResponse(message))).toEqual(Buffer.from(reference));
        expect(decodeEmbedResponse(reference)).toEqual(fromBinary(EmbedResponseSchema, reference));
      }),
      { numRuns: 300 },
    );
  });

  it('reads unpacked floats and skips fields it does not know, as the protobuf rules ask', () => {
    const float = (v: number) => {
      const b = Buffer.alloc(4);
      b.writeFloatLE(v);
      return b;
    };
    // Vector { values: 1.5 (unpacked, tag 0x0d), values: -2 (unpacked), unknown field 9 varint 7 }
    const vector = Buffer.concat([Buffer.of(0x0d), float(1.5), Buffer.of(0x0d), float(-2), Buffer.of(0x48, 7)]);
    // EmbedResponse { unknown field 7 LEN "xy", vectors: vector, unknown field 8 fixed64, dimensions: 2 }
    const bytes = Buffer.concat([
      Buffer.of(0x3a, 2, 0x78, 0x79),
      Buffer.of(0x0a, vector.length),
      vector,
      Buffer.of(0x41, 1, 2, 3, 4, 5, 6, 7, 8),
      Buffer.of(0x18, 2),
    ]);
    const decoded = decodeEmbedResponse(bytes);
    expect(decoded.vectors.map((v) => v.values)).toEqual([[1.5, -2]]);
    expect(decoded.dimensions).toBe(2);
    // protobuf-es keeps unknown fields in $unknown; the embedder has no use for them.
    expect(decoded.vectors.map((v) => v.values)).toEqual(
      fromBinary(EmbedResponseSchema, bytes).vectors.map((v) => v.values),
    );
  });

  it('refuses truncated bytes with a message naming the message type', () => {
    const bytes = encodeEmbedResponse({ vectors: [{ values: [1, 2, 3] }], model: 'm', dimensions: 3 });
    for (const cut of [1, 3, 9, bytes.length - 3]) {
      expect(() => decodeEmbedResponse(bytes.subarray(0, cut))).toThrow(/^EmbedResponse: .* past the end/);
    }
  });
});

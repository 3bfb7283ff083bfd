import {
  create,
  type DescMessage,
  type DescMethod,
  fromBinary,
  type MessageInitShape,
  type MessageShape,
  toBinary,
} from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

export type { GenService, GenServiceMethods };

/** What a request deserializer hands the handler when the bytes could not become a message. */
export class UnreadableRequest {
  constructor(readonly reason: string) {}
}

/** The path gRPC puts on the wire for a method: /package.Service/Method. */
export function methodPath(method: DescMethod): string {
  return `/${method.parent.typeName}/${method.name}`;
}

export function unaryMethods(service: GenService<GenServiceMethods>): DescMethod[] {
  for (const method of service.methods) {
    // Trove's contracts are unary only; streaming would need its own handler shapes.
    if (method.methodKind !== 'unary')
      throw new Error(`${methodPath(method)} is ${method.methodKind}: grpc-kit serves unary methods only`);
  }
  return service.methods;
}

/**
 * A hand-written wire codec for one message type, for hot messages where protobuf-es' generic
 * code is slow (its writer allocates for every packed float). It must read and write the same
 * bytes protobuf-es does; a half left out stays with protobuf-es.
 */
export interface MessageCodec<S extends DescMessage = DescMessage> {
  readonly schema: S;
  encode?(message: MessageInitShape<S>): Uint8Array;
  decode?(bytes: Uint8Array): MessageShape<S>;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of codecs of different message types
export type Codecs = readonly MessageCodec<any>[];

const asBuffer = (bytes: Uint8Array) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function codecOf(schema: DescMessage, codecs: Codecs | undefined): MessageCodec | undefined {
  return codecs?.find((codec) => codec.schema.typeName === schema.typeName);
}

export function serializer(schema: DescMessage, codecs?: Codecs) {
  const encode = codecOf(schema, codecs)?.encode;
  if (encode) return (message: unknown) => asBuffer(encode(message as never));
  return (message: unknown) => asBuffer(toBinary(schema, create(schema, message as never)));
}

export function deserializer(schema: DescMessage, codecs?: Codecs) {
  const decode = codecOf(schema, codecs)?.decode;
  if (decode) return (bytes: Buffer) => decode(bytes);
  return (bytes: Buffer) => fromBinary(schema, bytes);
}

/**
 * The @grpc/grpc-js definition of a protobuf-es service, keyed by the method's proto name. With
 * maxRequestBytes, larger requests reach the handler as UnreadableRequest, so that they can be
 * answered with a message that says what to fix instead of grpc-js' generic RESOURCE_EXHAUSTED.
 */
export function grpcServiceDefinition(
  service: GenService<GenServiceMethods>,
  options: { maxRequestBytes?: number; codecs?: Codecs } = {},
): ServiceDefinition {
  const definition: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const method of unaryMethods(service)) {
    const parse = deserializer(method.input, options.codecs);
    definition[method.name] = {
      path: methodPath(method),
      requestStream: false,
      responseStream: false,
      originalName: method.localName,
      requestSerialize: serializer(method.input, options.codecs),
      requestDeserialize: (bytes: Buffer) => {
        const limit = options.maxRequestBytes;
        if (limit !== undefined && bytes.length > limit) {
          return new UnreadableRequest(
            `the request is ${bytes.length} bytes; this server accepts at most ${limit} bytes per message: send a smaller request (fewer or shorter items per call)`,
          );
        }
        try {
          return parse(bytes);
        } catch (err) {
          return new UnreadableRequest(
            `the request is not a valid ${method.input.typeName}: ${(err as Error).message}`,
          );
        }
      },
      responseSerialize: serializer(method.output, options.codecs),
      responseDeserialize: deserializer(method.output, options.codecs),
    };
  }
  return definition as ServiceDefinition;
}

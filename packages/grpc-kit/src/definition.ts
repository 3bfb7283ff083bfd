import { create, type DescMessage, type DescMethod, fromBinary, toBinary } from '@bufbuild/protobuf';
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

export function serializer(schema: DescMessage) {
  return (message: unknown) => Buffer.from(toBinary(schema, create(schema, message as never)));
}

export function deserializer(schema: DescMessage) {
  return (bytes: Buffer) => fromBinary(schema, bytes);
}

/**
 * The @grpc/grpc-js definition of a protobuf-es service, keyed by the method's proto name. With
 * maxRequestBytes, larger requests reach the handler as UnreadableRequest, so that they can be
 * answered with a message that says what to fix instead of grpc-js' generic RESOURCE_EXHAUSTED.
 */
export function grpcServiceDefinition(
  service: GenService<GenServiceMethods>,
  options: { maxRequestBytes?: number } = {},
): ServiceDefinition {
  const definition: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const method of unaryMethods(service)) {
    const parse = deserializer(method.input);
    definition[method.name] = {
      path: methodPath(method),
      requestStream: false,
      responseStream: false,
      originalName: method.localName,
      requestSerialize: serializer(method.input),
      requestDeserialize: (bytes: Buffer) => {
        const limit = options.maxRequestBytes;
        if (limit !== undefined && bytes.length > limit) {
          return new UnreadableRequest(
            `the request is ${bytes.length} bytes; this server accepts at most ${limit} bytes per message: send fewer or shorter texts per call`,
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
      responseSerialize: serializer(method.output),
      responseDeserialize: deserializer(method.output),
    };
  }
  return definition as ServiceDefinition;
}

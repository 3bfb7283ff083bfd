import { fileURLToPath } from 'node:url';

/**
 * Where the .proto sources lie at run time, for what needs the text rather than the generated code
 * (server reflection loads them with @grpc/proto-loader).
 */
export const PROTO_ROOT = fileURLToPath(new URL('.', import.meta.url));

export const EMBEDDER_PROTO = 'trove/embedder/v1/embedder.proto';
export const TRACER_PROTO = 'trove/vectorize/v1/tracer.proto';

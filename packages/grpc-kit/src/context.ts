import { randomUUID } from 'node:crypto';
import { Metadata, status } from '@grpc/grpc-js';
import { type Context, context, propagation, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { currentRequestId } from '@trove/service-kit';

export { status as GrpcStatus } from '@grpc/grpc-js';

/** Metadata key carrying the request id across services, as the HTTP services use x-request-id. */
export const REQUEST_ID_KEY = 'x-request-id';
const INCOMING_ID = /^[\w.:-]{1,128}$/;

/** An error whose message is meant for the caller, answered with its gRPC status code. */
export class GrpcError extends Error {
  override readonly name = 'GrpcError';
  constructor(
    readonly code: status,
    message: string,
  ) {
    super(message);
  }
}

export const invalidArgument = (message: string) => new GrpcError(status.INVALID_ARGUMENT, message);
export const notFound = (message: string) => new GrpcError(status.NOT_FOUND, message);
export const resourceExhausted = (message: string) => new GrpcError(status.RESOURCE_EXHAUSTED, message);
export const unavailable = (message: string) => new GrpcError(status.UNAVAILABLE, message);
export const deadlineExceeded = (message: string) => new GrpcError(status.DEADLINE_EXCEEDED, message);

/** True for an error a grpc-js client rejected with (or a GrpcError) of the given code. */
export function hasGrpcCode(err: unknown, code: status): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

/** The name of a status code, e.g. INVALID_ARGUMENT, for logs and metric labels. */
export function statusName(code: status): string {
  return status[code] ?? String(code);
}

const setter: TextMapSetter<Metadata> = { set: (carrier, key, value) => carrier.set(key, value) };
const getter: TextMapGetter<Metadata> = {
  keys: (carrier) => Object.keys(carrier.getMap()),
  get: (carrier, key) => {
    const values = carrier.get(key).map(String);
    return values.length <= 1 ? values[0] : values;
  },
};

/**
 * Outgoing metadata: the active OpenTelemetry context (traceparent...) and the request id, by
 * default the id of the request being served (an HTTP request, or a gRPC call) when there is one.
 */
export function outgoingMetadata(requestId = currentRequestId(), extra?: Metadata): Metadata {
  const metadata = extra?.clone() ?? new Metadata();
  propagation.inject(context.active(), metadata, setter);
  if (requestId && !metadata.get(REQUEST_ID_KEY).length) metadata.set(REQUEST_ID_KEY, requestId);
  return metadata;
}

/** The OpenTelemetry context a caller sent; handlers run inside it so their spans join the trace. */
export function incomingContext(metadata: Metadata): Context {
  return propagation.extract(context.active(), metadata, getter);
}

/** The caller's request id when it is well-formed, else a fresh one. */
export function incomingRequestId(metadata: Metadata): string {
  const [value] = metadata.get(REQUEST_ID_KEY);
  return typeof value === 'string' && INCOMING_ID.test(value) ? value : randomUUID();
}

/** A deadline `ms` from now, as grpc-js call options take it. */
export function deadlineAfter(ms: number): Date {
  return new Date(Date.now() + ms);
}

/** Milliseconds left before an epoch-ms deadline (Infinity when there is none). */
export function remainingMs(deadline: number | undefined): number {
  return deadline === undefined ? Number.POSITIVE_INFINITY : deadline - Date.now();
}

/** The epoch-ms deadline of a server call, or undefined when the caller set none. */
export function callDeadline(deadline: Date | number): number | undefined {
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? ms : undefined;
}

import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * An error whose message is safe to show the caller. Routes throw these for every 4xx; anything
 * else that escapes a handler is a bug and is answered with a 500 that leaks nothing.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'authentication required') => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const payloadTooLarge = (message: string) => new HttpError(413, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const serviceUnavailable = (message: string, retryAfterSeconds?: number) =>
  new HttpError(
    503,
    message,
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );

/**
 * A required dependency (the database, its disk) cannot serve the request. Answered 503 with
 * Retry-After (507 for a full disk), with a message that names the dependency but not its address:
 * the address, never a password, goes to the log (see `describePostgresFailure` in @trove/data).
 * gRPC handlers answer it as UNAVAILABLE.
 */
export class DependencyUnavailableError extends Error {
  override readonly name = 'DependencyUnavailableError';
  readonly statusCode: 503 | 507;
  readonly retryAfterSeconds: number;
  /** What the caller is told, e.g. `the database (Postgres) is unavailable`. */
  readonly publicMessage: string;

  constructor(
    /** Short name, as logs, metrics and readiness name it: `database`. */
    readonly dependency: string,
    /** For the log: names the dependency and its address. */
    message: string,
    options: { statusCode?: 503 | 507; retryAfterSeconds?: number; publicMessage?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.statusCode = options.statusCode ?? 503;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 5;
    this.publicMessage = options.publicMessage ?? `${dependency} unavailable; retry later`;
  }
}

/** Recognises a dependency failure in an error thrown by a handler (e.g. a lost database connection). */
export type FailureClassifier = (err: unknown) => DependencyUnavailableError | undefined;

/** An app's own error as the HttpError it answers, or undefined for errors it does not own. */
export type ErrorMapper = (error: unknown) => HttpError | undefined;

/** The one error body shape all three specs use. */
export const errorBody = (message: string) => ({ error: message });

function isFastifyClientError(error: FastifyError): boolean {
  // Fastify's own errors (bad JSON, body too large, unsupported media type, validation) carry a 4xx
  // status and a message written for the caller.
  return typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500;
}

function validationMessage(error: FastifyError): string {
  // Fastify words these as "body/limit must be <= 100"; a dotted path reads better to API users.
  return error.message.replace(/^(body|querystring|params|headers)\//, '$1.').replace(/\//g, '.');
}

// Body types a route can be sent, in the order they are named; which apply is asked of the
// route's own context, so an encapsulated parser (a form, an upload) is named where it is accepted.
const BODY_TYPES = ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'];

/** `content-type text/plain is not accepted: send application/json` (or the types this route parses). */
function unsupportedTypeMessage(request: FastifyRequest): string {
  const accepted = BODY_TYPES.filter((type) => request.server.hasContentTypeParser(type));
  const sent = request.headers['content-type'];
  return `${sent ? `content-type ${sent.split(';')[0]} is not accepted` : 'the request has a body but no content-type'}: send ${accepted.join(' or ') || 'no body'}`;
}

export function handleError(thrown: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  // An app's own refusal (see ServiceKitOptions.mapError) is answered as the HttpError it maps to.
  const error = request.server.mapError?.(thrown) ?? thrown;
  // A required dependency that is down: 503/507 naming it (see dependency-failures.ts).
  const dependency = (
    request.server as { dependencyFailure?: (e: unknown, q: FastifyRequest, r: FastifyReply) => unknown }
  ).dependencyFailure?.(error, request, reply);
  if (dependency) return dependency;
  if (error instanceof HttpError) {
    if (error.statusCode >= 500) request.log.warn({ err: error }, 'request refused');
    return reply.code(error.statusCode).headers(error.headers).send(errorBody(error.message));
  }
  if (error.validation) {
    return reply.code(400).send(errorBody(validationMessage(error)));
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return reply.code(415).send(errorBody(unsupportedTypeMessage(request)));
  }
  if (isFastifyClientError(error)) {
    return reply.code(error.statusCode as number).send(errorBody(error.message));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send(errorBody('internal server error'));
}

export function handleNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send(errorBody(`no route for ${request.method} ${request.url.split('?')[0]}`));
}

import { HttpError, handleError } from '@trove/service-kit';
import type { FastifyError, FastifyInstance } from 'fastify';
import { DomainError, type DomainErrorCode } from '../domain-error.ts';

const STATUS = {
  INVALID: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UPSTREAM: 502,
  UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const satisfies Record<DomainErrorCode, number>;

/** The one place a domain refusal becomes an HTTP answer; everything else is the service kit's. Set on the scope the routes are registered in. */
export function mapDomainErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | DomainError, request, reply) => {
    if (!(error instanceof DomainError)) return handleError(error as FastifyError, request, reply);
    const retry: Record<string, string> =
      error.retryAfterS === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfterS))) };
    return handleError(new HttpError(STATUS[error.code], error.message, retry), request, reply);
  });
}

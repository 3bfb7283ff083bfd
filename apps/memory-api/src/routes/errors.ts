import { HttpError } from '@trove/service-kit';
import { DomainError, type DomainErrorCode } from '../domain-error.ts';

const STATUS = {
  INVALID: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UPSTREAM: 502,
  UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const satisfies Record<DomainErrorCode, number>;

/**
 * The one place a domain refusal becomes an HTTP answer: the service kit's error handler asks
 * this first (ServiceKitOptions.mapError), so the app sets no error handler of its own.
 */
export function domainErrorToHttp(error: unknown): HttpError | undefined {
  if (!(error instanceof DomainError)) return undefined;
  const retry: Record<string, string> =
    error.retryAfterS === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfterS))) };
  return new HttpError(STATUS[error.code], error.message, retry);
}

/**
 * What the domain (memories, rooms, documents, graph, lifecycle, ai) throws when it refuses: a
 * code and a message safe to show the caller. It knows nothing of HTTP; routes/errors.ts is the
 * one place that turns a code into a status (MCP tools run as their routes, so they get the same).
 */
export type DomainErrorCode = 'INVALID' | 'NOT_FOUND' | 'CONFLICT' | 'UNAVAILABLE' | 'UPSTREAM' | 'UPSTREAM_TIMEOUT';

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** For UNAVAILABLE: when to try again, in seconds. */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new DomainError('INVALID', message);
export const notFound = (message: string) => new DomainError('NOT_FOUND', message);
export const conflict = (message: string) => new DomainError('CONFLICT', message);

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DependencyUnavailableError, errorBody, type FailureClassifier } from './errors.ts';
import { FailureLog } from './failure-log.ts';
import { PROBE_PATHS } from './health.ts';

/** Answers an error that is a dependency failure (and says so), or leaves it (undefined). */
export type DependencyFailureHandler = (
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
) => FastifyReply | undefined;

declare module 'fastify' {
  interface FastifyInstance {
    /** Consulted by `handleError` first, so an app's own error handler that ends in it keeps this. */
    dependencyFailure: DependencyFailureHandler;
  }
}

/**
 * Dependency failures answered 503 (or 507) with Retry-After instead of a bare 500. Each failing
 * dependency is logged when it starts failing (naming it and its address), then at most once a
 * minute with a count, and once when a request succeeds again.
 */
export function handleDependencyFailures(app: FastifyInstance, classify?: FailureClassifier): void {
  const logs = new Map<string, FailureLog>();
  let failing = 0;
  app.decorate('dependencyFailure', ((error, request, reply) => {
    const failure = error instanceof DependencyUnavailableError ? error : classify?.(error);
    if (!failure) return undefined;
    let log = logs.get(failure.dependency);
    if (!log) {
      log = new FailureLog(failure.dependency);
      logs.set(failure.dependency, log);
    }
    if (!log.failing) failing++;
    log.failed(request.log, failure, { dependency: failure.dependency, statusCode: failure.statusCode });
    return reply
      .code(failure.statusCode)
      .header('retry-after', String(failure.retryAfterSeconds))
      .send(errorBody(failure.publicMessage));
  }) satisfies DependencyFailureHandler);
  // Probes answer without touching dependencies, so they prove nothing about recovery.
  app.addHook('onResponse', (request, reply, done) => {
    if (failing > 0 && reply.statusCode < 500 && !PROBE_PATHS.test(request.url)) {
      for (const log of logs.values()) {
        if (log.failing) log.recovered(request.log, { dependency: log.what });
      }
      failing = 0;
    }
    done();
  });
}

import type { FastifyError, FastifyInstance } from 'fastify';
import {
  DependencyUnavailableError,
  errorBody,
  type FailureClassifier,
  type HttpError,
  handleError,
} from './errors.ts';
import { FailureLog } from './failure-log.ts';
import { PROBE_PATHS } from './health.ts';

/**
 * The app's error handler, with dependency failures answered 503 (or 507) and Retry-After instead
 * of a bare 500. Each failing dependency is logged when it starts failing (naming it and its
 * address), then at most once a minute with a count, and once when a request succeeds again.
 */
export function handleDependencyFailures(app: FastifyInstance, classify?: FailureClassifier): void {
  const logs = new Map<string, FailureLog>();
  let failing = 0;
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const failure = error instanceof DependencyUnavailableError ? error : classify?.(error);
    if (!failure) return handleError(error, request, reply);
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
  });
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

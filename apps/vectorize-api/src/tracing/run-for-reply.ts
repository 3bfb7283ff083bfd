import { badRequest, serviceUnavailable } from '@trove/service-kit';
import {
  type JobOptions,
  TracerBusyError,
  TracerInputError,
  TracerTimeoutError,
  TracerUnavailableError,
} from '@trove/tracer';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Runs one tracer job for a request. The job is tied to the connection: when the client goes away
 * before the answer is written, the signal aborts and the tracer drops or stops the job (on a
 * remote worker too: the call is cancelled). Its deadline is the request's arrival plus
 * `timeoutMs`. Resolves to null when the client left (there is nobody left to answer).
 */
export async function runForReply<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  timeoutMs: number,
  job: (options: JobOptions) => Promise<T>,
): Promise<T | null> {
  const clientGone = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) clientGone.abort();
  };
  reply.raw.once('close', onClose);
  // elapsedTime counts from the request's arrival, so the upload's time is part of the budget.
  const deadline = Date.now() - reply.elapsedTime + timeoutMs;
  try {
    return await job({ signal: clientGone.signal, deadline, requestId: request.id });
  } catch (error) {
    if (clientGone.signal.aborted) return null;
    if (error instanceof TracerBusyError) {
      throw serviceUnavailable('the server is busy with other images; retry later', error.retryAfterSeconds);
    }
    if (error instanceof TracerUnavailableError) {
      request.log.warn({ err: error }, 'no tracing worker reachable');
      throw serviceUnavailable('the tracing workers cannot be reached; retry later', error.retryAfterSeconds);
    }
    if (error instanceof TracerTimeoutError) {
      throw serviceUnavailable(
        `the image could not be processed within ${Math.round(timeoutMs / 1000)} s; retry later, or send a smaller image`,
      );
    }
    if (error instanceof TracerInputError) throw badRequest(error.message);
    throw error;
  } finally {
    reply.raw.off('close', onClose);
  }
}

import { badRequest, serviceUnavailable } from '@trove/service-kit';
import type { FastifyReply } from 'fastify';
import { TracerBusyError } from './tracer.ts';

/** Errors from the worker that are about the caller's input, with how to word them. */
const CLIENT_ERRORS: Record<string, (message: string) => string> = {
  VectorizeOptionError: (message) => message,
  VectorizeInputError: (message) => message,
  // svgo's parser appends a code excerpt after a blank line; the first line says what is wrong.
  SvgoParserError: (message) => `the SVG could not be parsed: ${message.split('\n')[0]}`,
};

/**
 * Runs one pool job for a request. The job is tied to the connection: when the client goes away
 * before the answer is written, the signal aborts and the pool drops or stops the job. Resolves
 * to null when that happened (there is nobody left to answer).
 */
export async function runForReply<T>(reply: FastifyReply, job: (signal: AbortSignal) => Promise<T>): Promise<T | null> {
  const clientGone = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) clientGone.abort();
  };
  reply.raw.once('close', onClose);
  try {
    return await job(clientGone.signal);
  } catch (error) {
    if (clientGone.signal.aborted) return null;
    if (error instanceof TracerBusyError) {
      throw serviceUnavailable('the server is busy with other images; retry later', error.retryAfterSeconds);
    }
    const err = error as Error;
    const word = CLIENT_ERRORS[err.name];
    if (word) throw badRequest(word(err.message));
    throw error;
  } finally {
    reply.raw.off('close', onClose);
  }
}

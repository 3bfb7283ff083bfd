/** The tracer cannot take another job now; callers should retry after `retryAfterSeconds`. */
export class TracerBusyError extends Error {
  override readonly name = 'TracerBusyError';
  constructor(
    readonly retryAfterSeconds: number,
    message = 'all tracing workers are busy and the queue is full',
  ) {
    super(message);
  }
}

/** No tracing worker could be reached (all down, starting or draining). */
export class TracerUnavailableError extends Error {
  override readonly name = 'TracerUnavailableError';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The job's deadline passed before it finished; it was dropped or stopped. */
export class TracerTimeoutError extends Error {
  override readonly name = 'TracerTimeoutError';
  constructor(message = 'the job did not finish before its deadline') {
    super(message);
  }
}

/** The engine or the optimiser refused the input; the message says what is wrong, for the caller. */
export class TracerInputError extends Error {
  override readonly name = 'TracerInputError';
}

/** Something failed inside a worker that is not the caller's fault; the message is for logs. */
export class TraceFailedError extends Error {
  constructor(
    override readonly name: string,
    message: string,
  ) {
    super(message);
  }
}

export function abortError(): Error {
  return new DOMException('the job was cancelled', 'AbortError');
}

/** True when an AbortSignal's reason means "out of time" rather than "nobody wants it any more". */
export function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof TracerTimeoutError || (reason as { name?: unknown } | undefined)?.name === 'TimeoutError';
}

/** Errors of the engine and of svgo that are about the caller's input, with how to word them. */
const INPUT_ERRORS: Record<string, (message: string) => string> = {
  VectorizeOptionError: (message) => message,
  VectorizeInputError: (message) => message,
  // svgo's parser appends a code excerpt after a blank line; the first line says what is wrong.
  SvgoParserError: (message) => `the SVG could not be parsed: ${message.split('\n')[0]}`,
};

/** An error raised in a worker thread, by name and message: the caller's fault or not. */
export function workerError(name: string, message: string): Error {
  const word = INPUT_ERRORS[name];
  return word ? new TracerInputError(word(message)) : new TraceFailedError(name, message);
}

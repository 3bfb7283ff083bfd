import type { MessageHandler, SharedStateLogger } from './types.ts';

/**
 * Runs one subscriber. A handler that throws is logged and skipped so that it
 * cannot stop delivery to the other handlers, nor crash the connection's
 * event loop callback (for Redis that would surface as an uncaught exception).
 */
export function invokeHandler(
  handler: MessageHandler,
  message: string,
  channel: string,
  logger: SharedStateLogger,
): void {
  try {
    handler(message);
  } catch (err) {
    logger.warn({ err, channel }, 'shared-state: pub/sub handler threw; other handlers still ran');
  }
}

export function closedError(): Error {
  return new Error('shared-state: this handle is closed');
}

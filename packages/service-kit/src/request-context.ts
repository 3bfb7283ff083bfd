import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request being served, for code far from the route handler: a gRPC client call made while
 * answering an HTTP request carries the same request id, so one id follows a call across services
 * without threading it through every function in between.
 */
const current = new AsyncLocalStorage<{ requestId: string }>();

export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId;
}

/** Runs `fn` (and everything it starts) as part of the request `requestId`. */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return current.run({ requestId }, fn);
}

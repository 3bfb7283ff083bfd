import { backoffDelay, type CircuitBreaker } from '@trove/service-kit';
import { Redis, ReplyError } from 'ioredis';
import { RedisUnreachableError, redisAddress } from './redis-address.ts';
import type { SharedStateLogger } from './types.ts';

/** Upper bound for any single command, PING included: Redis answers in well under a millisecond. */
const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 3_000;
/** After disconnect(), ioredis destroys a socket whose peer has not closed it by then. */
const DISCONNECT_TIMEOUT_MS = 1_000;
/** How long close() waits for a socket to report it has ended; must exceed the above. */
const CLOSE_TIMEOUT_MS = 3_000;

export type ConnectionRole = 'cmd' | 'sub';

/** Shows up in CLIENT LIST, e.g. "trove:errors:sub". SETNAME refuses spaces and control chars. */
function connectionName(keyPrefix: string, role: ConnectionRole): string {
  return `${keyPrefix.replace(/[^!-~]/g, '_')}${role}`;
}

export function openConnection(
  redisUrl: string,
  keyPrefix: string,
  role: ConnectionRole,
  logger: SharedStateLogger,
): Redis {
  const client = new Redis(redisUrl, {
    connectionName: connectionName(keyPrefix, role),
    // The default (20) keeps a request queued through ~20 reconnect attempts,
    // so a dead Redis would stall every HTTP request for tens of seconds.
    // With 2 a request fails after a few quick attempts; the client itself
    // keeps reconnecting in the background (backoff with jitter, capped at 5 s).
    maxRetriesPerRequest: 2,
    // Kept on so that commands issued during start-up or a brief reconnect
    // wait for the connection instead of failing at once; the two bounds
    // above and below keep that wait short.
    enableOfflineQueue: true,
    // A server that accepts TCP but never answers (overloaded, half-open
    // connection) would otherwise hang commands, and readiness checks, forever.
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    disconnectTimeout: DISCONNECT_TIMEOUT_MS,
    // ioredis reconnects in one loop per connection (and re-subscribes the subscriber's channels);
    // jitter keeps replicas cut off by the same outage from reconnecting in step.
    retryStrategy: (times: number) => backoffDelay(times - 1, { baseMs: 100, maxMs: 5_000 }),
  });

  // Without a listener ioredis prints every reconnect failure to stderr.
  // Report once per outage instead of once per retry.
  let reported = false;
  const address = redisAddress(redisUrl);
  client.on('error', (err: unknown) => {
    if (reported) return;
    reported = true;
    logger.warn(
      { err, connection: role, redis: address },
      `shared-state: Redis at ${address} unreachable; reconnecting in the background`,
    );
  });
  client.on('ready', () => {
    reported = false;
  });
  return client;
}

/**
 * What a service needs to know about one connection: whether it is up, a number that changes on
 * every (re)connect, and errors that name the server (never its password) when it is not.
 */
export class ConnectionWatch {
  readonly #client: Redis;
  readonly #address: string;
  readonly #breaker: CircuitBreaker | undefined;
  #everReady = false;
  #connects = 0;
  #lastProblem: string | undefined;

  /** With a breaker, commands fail at once while it is open, and each outcome is reported to it. */
  constructor(client: Redis, redisUrl: string, breaker?: CircuitBreaker) {
    this.#client = client;
    this.#address = redisAddress(redisUrl);
    this.#breaker = breaker;
    client.on('ready', () => {
      this.#everReady = true;
      this.#connects++;
      this.#lastProblem = undefined;
    });
    client.on('error', (err: Error) => {
      this.#lastProblem = err.message;
    });
  }

  get ready(): boolean {
    return this.#client.status === 'ready';
  }

  /** Undefined while down; otherwise changes on every reconnect. */
  get epoch(): number | undefined {
    return this.ready ? this.#connects : undefined;
  }

  unreachable(cause?: unknown): RedisUnreachableError {
    if (this.#lastProblem)
      return new RedisUnreachableError(`Redis at ${this.#address} unreachable: ${this.#lastProblem}`);
    const reason = cause instanceof Error ? cause.message : 'not connected';
    return new RedisUnreachableError(`Redis at ${this.#address} unreachable: ${reason}`, { cause });
  }

  /**
   * Runs a command, failing at once (instead of queueing) while a connection that was up is down,
   * so no caller waits on an outage; connection failures become RedisUnreachableError, while Redis'
   * own answers (ReplyError) pass through.
   */
  async run<T>(command: () => Promise<T>): Promise<T> {
    if (this.#everReady && !this.ready) throw this.unreachable();
    if (this.#breaker?.isOpen) {
      throw new RedisUnreachableError(
        `Redis at ${this.#address} is not answering (circuit open: commands skip it until a probe answers)`,
      );
    }
    try {
      const result = await command();
      this.#breaker?.succeeded();
      return result;
    } catch (err) {
      if (err instanceof ReplyError) {
        this.#breaker?.succeeded();
        throw err;
      }
      this.#breaker?.failed(err);
      throw this.unreachable(err);
    }
  }
}

/** Resolves after `ms` at the latest; never rejects and leaves no timer behind. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([
      promise.then(
        () => undefined,
        () => undefined,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Closes a connection for good and waits until its socket is gone. */
export async function closeConnection(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
  if (client.status === 'ready') {
    // QUIT lets Redis answer what was already sent before it hangs up. If it
    // fails or stalls, disconnect() below still drops the socket (a no-op
    // when QUIT already did).
    await settleWithin(client.quit(), CLOSE_TIMEOUT_MS);
    client.disconnect();
  } else {
    // Not connected: a QUIT would sit in the offline queue. Dropping the
    // socket also cancels any scheduled reconnect.
    client.disconnect();
  }
  // ioredis never emits 'end' when disconnect() interrupts a pending
  // reconnect (there is no socket left to close), hence the bound.
  if (client.status !== 'reconnecting') await settleWithin(ended, CLOSE_TIMEOUT_MS);
}

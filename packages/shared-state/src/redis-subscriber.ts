import type { Redis } from 'ioredis';
import { invokeHandler } from './handlers.ts';
import { ConnectionWatch, closeConnection } from './redis-connection.ts';
import type { MessageHandler, SharedStateLogger, Unsubscribe } from './types.ts';

interface ChannelState {
  /** One object per subscribe() call, so the same function subscribed twice is two entries. */
  handlers: Set<{ handler: MessageHandler }>;
  /** The SUBSCRIBE for this channel; later subscribers wait for the same one. */
  ready: Promise<unknown>;
}

/**
 * Fans the messages of ONE subscriber connection out to local handlers.
 *
 * A connection that has issued SUBSCRIBE is reserved for pub/sub (with RESP2
 * it refuses other commands outright), so it is kept apart from the command
 * connection, and only opened once something subscribes. Redis sees one
 * SUBSCRIBE per channel however many local handlers there are, and an
 * UNSUBSCRIBE when the last of them leaves.
 */
export class RedisSubscriber {
  readonly #open: () => Redis;
  readonly #redisUrl: string;
  readonly #logger: SharedStateLogger;
  readonly #channels = new Map<string, ChannelState>();
  #connection: Redis | undefined;
  #watch: ConnectionWatch | undefined;

  constructor(open: () => Redis, redisUrl: string, logger: SharedStateLogger) {
    this.#open = open;
    this.#redisUrl = redisUrl;
    this.#logger = logger;
  }

  /** See SharedState.subscriptionEpoch: undefined until something subscribed and while disconnected. */
  get epoch(): number | undefined {
    return this.#watch?.epoch;
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe> {
    const connection = this.#connect();
    let state = this.#channels.get(channel);
    if (!state) {
      const watch = this.#watch as ConnectionWatch;
      state = { handlers: new Set(), ready: watch.run(() => connection.subscribe(channel)) };
      this.#channels.set(channel, state);
    }
    const entry = { handler };
    state.handlers.add(entry);
    try {
      await state.ready;
    } catch (err) {
      this.#release(channel, state, entry);
      throw err;
    }
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      // Commands on one connection run in order, so a SUBSCRIBE sent after
      // this UNSUBSCRIBE (by a newer subscribe() call) still wins.
      if (this.#release(channel, state, entry) && this.#connection) {
        await this.#connection.unsubscribe(channel);
      }
    };
  }

  async close(): Promise<void> {
    this.#channels.clear();
    const connection = this.#connection;
    this.#connection = undefined;
    this.#watch = undefined;
    if (connection) await closeConnection(connection);
  }

  #connect(): Redis {
    if (!this.#connection) {
      const connection = this.#open();
      connection.on('message', (channel: string, message: string) => this.#deliver(channel, message));
      this.#connection = connection;
      this.#watch = new ConnectionWatch(connection, this.#redisUrl);
    }
    return this.#connection;
  }

  #deliver(channel: string, message: string): void {
    const state = this.#channels.get(channel);
    if (!state) return;
    // Snapshot, so handlers that (un)subscribe while running do not change who gets this message.
    for (const { handler } of [...state.handlers]) {
      invokeHandler(handler, message, channel, this.#logger);
    }
  }

  /** Drops one handler; true when it was the channel's last, i.e. Redis should UNSUBSCRIBE. */
  #release(channel: string, state: ChannelState, entry: { handler: MessageHandler }): boolean {
    state.handlers.delete(entry);
    // The identity check skips a state that close() or a newer subscribe() already replaced.
    if (state.handlers.size > 0 || this.#channels.get(channel) !== state) return false;
    this.#channels.delete(channel);
    return true;
  }
}

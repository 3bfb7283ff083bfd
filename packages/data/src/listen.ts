import type { Socket } from 'node:net';
import { type BackoffOptions, backoffDelay, wakeableSleep } from '@trove/service-kit';
import pg from 'pg';

/** How often an idle LISTEN connection proves it is alive, and how long the proof may take. */
const HEARTBEAT_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;
const CONNECT_TIMEOUT_MS = 5_000;

export interface ListenOptions {
  /** Reconnect delays (doubling with jitter; default 200 ms up to 5 s). */
  backoff?: BackoffOptions;
  /** Called when the connection is lost (with why), and again each time a reconnect fails. */
  onDown?: (err: unknown) => void;
  /** Called once the connection is back after a loss. */
  onUp?: () => void;
}

/**
 * LISTEN on a connection outside the pool (a pooled one would be handed to other queries). A lost
 * connection is replaced by ONE loop: connect, LISTEN, wait until the connection ends, back off,
 * again. Nothing else schedules a connect, so an outage never multiplies the connections opened
 * when the server returns (an earlier version retried from both the client's `end` event and the
 * failed connect, and each chain ended holding a connection of its own). `onNotify` is called
 * once the connection is back, since notifications sent meanwhile are gone.
 */
export async function listenPostgres(
  url: string,
  channel: string,
  onNotify: () => void,
  options: ListenOptions = {},
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`bad channel name ${JSON.stringify(channel)}`);
  let client: pg.Client | undefined;
  let stopped = false;
  const pause = wakeableSleep();

  const session = async (): Promise<pg.Client> => {
    const next = new pg.Client({
      connectionString: url,
      // Names the session in pg_stat_activity (unless the URL names one): on call, one per replica and channel is normal.
      application_name: `trove-listen:${channel}`,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: HEARTBEAT_TIMEOUT_MS,
      keepAlive: true,
    });
    next.on('notification', (n) => {
      if (n.channel === channel) onNotify();
    });
    // An 'error' event without a listener would kill the process; the loop learns of the loss from 'end'.
    next.on('error', () => {});
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      return next;
    } catch (err) {
      destroy(next);
      throw err;
    }
  };

  /** Resolves when the connection ends, or stops proving it is alive (a half-open TCP connection). */
  const lost = (c: pg.Client): Promise<unknown> =>
    new Promise((resolve) => {
      const heartbeat = setInterval(() => {
        c.query('SELECT 1').catch((err) => {
          resolve(err);
          destroy(c);
        });
      }, HEARTBEAT_MS);
      heartbeat.unref();
      c.once('end', () => {
        clearInterval(heartbeat);
        resolve(new Error('the LISTEN connection ended'));
      });
    });

  const loop = async (first: pg.Client): Promise<void> => {
    let current: pg.Client | undefined = first;
    let attempt = 0;
    while (!stopped) {
      if (current) {
        client = current;
        const why = await lost(current);
        client = undefined;
        current = undefined;
        if (stopped) return;
        options.onDown?.(why);
        attempt = 0;
      }
      await pause.sleep(backoffDelay(attempt++, options.backoff));
      if (stopped) return;
      try {
        current = await session();
      } catch (err) {
        options.onDown?.(err);
        continue;
      }
      if (stopped) {
        destroy(current);
        return;
      }
      options.onUp?.();
      onNotify();
    }
  };

  const running = loop(await session());
  return async () => {
    stopped = true;
    pause.wake();
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
    await running;
  };
}

/** Drops a connection at once: `end()` would wait on a server that may never answer. */
function destroy(c: pg.Client): void {
  const stream = (c as unknown as { connection?: { stream?: Socket } }).connection?.stream;
  stream?.destroy();
  c.end().catch(() => {});
}

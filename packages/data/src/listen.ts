import pg from 'pg';

const RETRY_MS = 1000;

/**
 * LISTEN on a connection outside the pool (a pooled one would be handed to other queries). A lost
 * connection is replaced after RETRY_MS, and `onNotify` is called once it is back, since
 * notifications sent meanwhile are gone.
 */
export async function listenPostgres(url: string, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`bad channel name ${JSON.stringify(channel)}`);
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (n) => {
      if (n.channel === channel) onNotify();
    });
    const lost = () => {
      if (client !== next || stopped) return;
      client = undefined;
      next.end().catch(() => {});
      retry = setTimeout(reconnect, RETRY_MS);
    };
    next.on('error', lost);
    next.on('end', lost);
    client = next;
    await next.connect();
    await next.query(`LISTEN ${channel}`);
  };
  const reconnect = () => {
    if (stopped) return;
    connect().then(onNotify, () => {
      if (!stopped) retry = setTimeout(reconnect, RETRY_MS);
    });
  };

  try {
    await connect();
  } catch (err) {
    stopped = true;
    await client?.end().catch(() => {});
    throw err;
  }
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}

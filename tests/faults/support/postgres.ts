import { createThrowawayDatabase, type ThrowawayDatabase } from '@trove/data';
import pg from 'pg';
import type { TcpProxy } from './tcp-proxy.ts';

export const SERVER_URL = process.env.TEST_DATABASE_URL ?? '';

/** A throwaway database, and its URL as seen through a proxy (the services connect through it). */
export async function databaseBehind(
  proxy: TcpProxy,
  label: string,
): Promise<ThrowawayDatabase & { viaProxy: string }> {
  const db = await createThrowawayDatabase(SERVER_URL, label);
  const viaProxy = new URL(db.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  return { ...db, viaProxy: viaProxy.toString() };
}

/** Sessions on one database by application name ('' for the pool's, which set none). */
export async function sessionsByApplication(url: string): Promise<Record<string, number>> {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ app: string; n: number }>(
      `SELECT application_name AS app, count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 GROUP BY 1`,
      [name],
    );
    return Object.fromEntries(rows.map((r) => [r.app, r.n]));
  } finally {
    await admin.end();
  }
}

/** Polls `read` until `done` holds, or throws with the last value after `ms`. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(last)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  return last;
}

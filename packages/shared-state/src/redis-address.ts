/** A Redis URL as logs and errors may show it: scheme, user, host, port and database; never the password. */
export function redisAddress(redisUrl: string): string {
  try {
    const url = new URL(redisUrl);
    const user = url.username ? `${url.username}@` : '';
    const database = url.pathname && url.pathname !== '/' ? url.pathname : '';
    return `${url.protocol}//${user}${url.host}${database}`;
  } catch {
    return 'redis (an unparsable URL)';
  }
}

/** The database number a URL selects (redis://host:6379/2 → 2); pub/sub ignores it, keys do not. */
export function redisDatabase(redisUrl: string): number {
  try {
    const path = new URL(redisUrl).pathname.replace(/^\//, '');
    return path === '' ? 0 : Number.parseInt(path, 10) || 0;
  } catch {
    return 0;
  }
}

/** Raised for every command that could not reach Redis; names the server, never the password. */
export class RedisUnreachableError extends Error {
  override readonly name = 'RedisUnreachableError';
}

/** A Postgres URL as logs and errors may show it: user, host, port and database; never the password. */
export function postgresAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
    return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return 'postgres (an unparsable URL)';
  }
}

/** What went wrong reaching the server, by the codes of Node's sockets and of Postgres itself. */
const PROBLEMS: Record<string, string> = {
  ECONNREFUSED: 'refused the connection',
  ENOTFOUND: 'could not be found (no such host)',
  EAI_AGAIN: 'could not be found (name lookup failed)',
  ETIMEDOUT: 'did not answer in time',
  ECONNRESET: 'closed the connection',
  EHOSTUNREACH: 'is unreachable (no route to host)',
  '28P01': 'refused the password',
  '28000': 'refused the login',
  '3D000': 'has no such database',
  '57P03': 'is not accepting connections yet',
  '53300': 'has too many connections',
};

/** Raised when the database server cannot be reached or refuses us; names it without the password. */
export class DatabaseUnreachableError extends Error {
  override readonly name = 'DatabaseUnreachableError';
}

/**
 * Turns a connection failure into one line naming Postgres and its address
 * (`Postgres at postgres://user@host:5433/db refused the connection`, caused by the socket's error);
 * other errors (a failing statement) come back unchanged.
 */
export function describePostgresFailure(url: string, err: unknown): unknown {
  const code = (err as { code?: unknown } | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  const connectionLost = /Connection terminated|connection timeout/i.test(message);
  const problem = typeof code === 'string' ? PROBLEMS[code] : undefined;
  if (!problem && !connectionLost) return err;
  const what = problem ?? 'dropped the connection';
  // The cause (with Node's own message) follows in logs: pino prints "...: connect ECONNREFUSED 127.0.0.1:5433".
  return new DatabaseUnreachableError(`Postgres at ${postgresAddress(url)} ${what}`, { cause: err });
}

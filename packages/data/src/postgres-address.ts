import { DependencyUnavailableError } from '@trove/service-kit';

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
  '57P01': 'ended the session (administrator command or shutdown)',
  '57P02': 'ended the session (crash shutdown)',
  '57P03': 'is not accepting connections yet',
  '53300': 'has too many connections',
  '08000': 'dropped the connection',
  '08003': 'dropped the connection',
  '08006': 'dropped the connection',
  '08001': 'refused the connection',
  '08004': 'refused the connection',
  // Prisma's codes, for errors that come through its client rather than straight from pg.
  P1001: 'could not be reached',
  P1002: 'did not answer in time',
  P1017: 'closed the connection',
  P2024: 'gave no connection in time (the pool is exhausted or the server is slow)',
};

/** pg's own wording for a connection lost or never made (it sets no code for these). */
const CONNECTION_LOST =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed/i;

/** Raised when the database server cannot be reached or refuses us; names it without the password. */
export class DatabaseUnreachableError extends DependencyUnavailableError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('database', message, { ...options, publicMessage: 'the database (Postgres) is unavailable; retry later' });
  }
}

/** The connection problem in an error or its causes, if any. */
function connectionProblem(err: unknown): { what: string; cause: unknown } | undefined {
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DatabaseUnreachableError) return { what: '', cause: e };
    const code = (e as { code?: unknown }).code;
    const problem = typeof code === 'string' ? PROBLEMS[code] : undefined;
    if (problem) return { what: problem, cause: e };
    if (e instanceof Error && CONNECTION_LOST.test(e.message)) return { what: 'dropped the connection', cause: e };
  }
  return undefined;
}

/**
 * Turns a connection failure into one line naming Postgres and its address
 * (`Postgres at postgres://user@host:5433/db refused the connection`, caused by the socket's error);
 * other errors (a failing statement) come back unchanged.
 */
export function describePostgresFailure(url: string, err: unknown): unknown {
  return postgresFailure(url, err) ?? err;
}

/** A connection failure as a DatabaseUnreachableError (answered 503 by the service kit), else undefined. */
export function postgresFailure(url: string, err: unknown): DatabaseUnreachableError | undefined {
  const found = connectionProblem(err);
  if (!found) return undefined;
  if (found.cause instanceof DatabaseUnreachableError) return found.cause;
  // The cause (with Node's own message) follows in logs: pino prints "...: connect ECONNREFUSED 127.0.0.1:5433".
  return new DatabaseUnreachableError(`Postgres at ${postgresAddress(url)} ${found.what}`, { cause: err });
}

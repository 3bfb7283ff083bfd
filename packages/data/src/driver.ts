import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/** One connection's worth of raw SQL: used for migrations, health checks and tests. */
export interface SqlSession {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Runs a script of one or more statements without parameters. */
  exec(script: string): Promise<void>;
}

/** Raw SQL over the app's database, whichever engine it is. */
export interface SqlDriver extends SqlSession {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` on one dedicated connection (needed for session locks and explicit transactions). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
}

const sessionQueue = new WeakMap<PGlite, Promise<void>>();

export function pgliteDriver(db: PGlite): SqlDriver {
  const session: SqlSession = {
    async query(text, params) {
      return (await db.query(text, params)).rows as never[];
    },
    async exec(script) {
      await db.exec(script);
    },
  };
  // PGlite is one connection in this process, so a session is the database itself; sessions take
  // turns so that one's explicit transaction never interleaves with another's.
  return {
    kind: 'pglite',
    ...session,
    withSession<T>(fn: (s: SqlSession) => Promise<T>): Promise<T> {
      const run = (sessionQueue.get(db) ?? Promise.resolve()).then(() => fn(session));
      sessionQueue.set(
        db,
        run.then(
          () => {},
          () => {},
        ),
      );
      return run;
    },
  };
}

export function postgresDriver(pool: pg.Pool): SqlDriver {
  const onClient = (client: pg.Pool | pg.PoolClient): SqlSession => ({
    async query(text, params) {
      return (await client.query(text, params)).rows;
    },
    async exec(script) {
      // Without parameters pg uses the simple protocol, which accepts several statements.
      await client.query(script);
    },
  });
  return {
    kind: 'postgres',
    ...onClient(pool),
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn(onClient(client));
      } finally {
        client.release();
      }
    },
  };
}

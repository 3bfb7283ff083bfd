import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { DependencyUnavailableError, FailureLogger } from '@trove/service-kit';
import { FailureLog } from '@trove/service-kit';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { Autovacuum } from './autovacuum.ts';
import { BYTEA, nativeByteaClient, parseBytea } from './bytea.ts';
import { clusterTemplate, copyCluster, keepClusterTemplate, startFrom } from './cluster-template.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { pgliteDriver, postgresDriver, type SqlDriver } from './driver.ts';
import { embeddedFailure } from './embedded-failure.ts';
import { listenPostgres } from './listen.ts';
import { applyMigrations, MigrationError, migrationStatus, readMigrations } from './migrations.ts';
import { PGliteThread } from './pglite-thread/pglite-thread.ts';
import { pgliteWasm } from './pglite-wasm.ts';
import { describePostgresFailure, postgresAddress, postgresFailure } from './postgres-address.ts';

export type DriverAdapterFactory = PrismaPg | PrismaPGlite;

/** The bit of a generated Prisma client that the data tier needs. */
export interface PrismaLike {
  $disconnect(): Promise<void>;
}

export interface OpenDatabaseOptions<C extends PrismaLike> {
  /** A Postgres URL; without one the embedded database is used. */
  url?: string | undefined;
  /** Embedded database directory, or `memory://` for a throwaway in-memory one. */
  dataDir: string;
  /** Run the embedded database on its own thread (the default), or in this one. */
  thread?: boolean;
  /** On its thread: how long the embedded database may owe an answer before it counts as stalled. */
  stallMs?: number;
  migrationsDir: string;
  /** `apply` pending migrations, or `verify` that none is pending; `auto`: apply on PGlite, verify on Postgres. */
  migrate: 'auto' | 'apply' | 'verify';
  poolMax?: number;
  /** Called with errors of the embedded database's background upkeep (see Autovacuum). */
  onBackgroundError?: (err: unknown) => void;
  /** Where the LISTEN connection's losses and recoveries are logged (summarised; see FailureLog). */
  logger?: FailureLogger;
  createClient: (adapter: DriverAdapterFactory) => C;
}

export interface Database<C extends PrismaLike> {
  readonly kind: 'pglite' | 'postgres';
  /** The typed Prisma client of the app. */
  readonly prisma: C;
  /** Raw SQL for what Prisma does not express. */
  readonly sql: SqlDriver;
  /** Migrations this open applied. */
  readonly appliedMigrations: string[];
  /** Vacuum and analyse on the embedded database (Postgres does its own). */
  readonly autovacuum: Autovacuum;
  ping(): Promise<void>;
  /**
   * For liveness: throws when the database can no longer answer at all and only a restart helps
   * (the embedded database's thread stalled past its bound, or stopped). Never waits.
   */
  alive(): void;
  /**
   * Calls `onNotify` on every NOTIFY of `channel` from any connection, over a connection of its
   * own that reconnects after a loss (calling `onNotify` then too: notifications may have been
   * missed). On the embedded database, one process is the only writer: it resolves to a no-op.
   * Resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * The failure of this database in an error a handler threw (a lost or refused connection), as a
   * DependencyUnavailableError that names it: the service kit answers it 503 with Retry-After.
   */
  unavailable(err: unknown): DependencyUnavailableError | undefined;
  close(): Promise<void>;
}

interface Engine {
  driver: SqlDriver;
  adapter: DriverAdapterFactory;
  shutdown(): Promise<void>;
  /** Why the database can no longer answer at all (its thread stalled or stopped), if so. */
  failure?: () => Error | undefined;
}

const CONNECT_TIMEOUT_MS = 5_000;

async function openPostgres(url: string, poolMax: number): Promise<Engine> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    // pg waits for a connection forever by default: a server that drops packets would hold every
    // request until the kernel gives up (minutes). Bounded, the request fails and is answered 503.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener that kills the process.
  pool.on('error', () => {});
  return { driver: postgresDriver(pool), adapter: new PrismaPg(pool), shutdown: () => pool.end() };
}

/** A new in-memory database starts from the process's cluster template, or makes it (cluster-template.ts). */
async function createPglite(
  path: string | undefined,
  thread: boolean,
  stallMs?: number,
): Promise<PGlite | PGliteThread> {
  const files = path === undefined ? clusterTemplate() : undefined;
  const keep = path === undefined && !files ? keepClusterTemplate : undefined;
  if (thread) {
    return PGliteThread.open(path, {
      ...(stallMs !== undefined && { stallMs }),
      ...(files && { clusterFiles: files }),
      ...(keep && { onClusterFiles: keep }),
    });
  }
  const db = await PGlite.create(path, {
    parsers: { [BYTEA]: parseBytea },
    ...startFrom(files),
    ...(await pgliteWasm()),
  });
  if (keep) keep(await copyCluster(db));
  return db;
}

async function openPglite(dataDir: string, thread: boolean, stallMs?: number): Promise<Engine> {
  const inMemory = dataDir === 'memory://';
  const release = inMemory ? () => {} : lockDataDir(dataDir);
  try {
    const db = await createPglite(inMemory ? undefined : dataDir, thread, stallMs);
    return {
      ...(db instanceof PGliteThread && { failure: () => db.failure }),
      driver: pgliteDriver(db),
      // The adapter calls only query, exec and transaction, which the thread also offers, with PGlite's semantics.
      adapter: new PrismaPGlite(nativeByteaClient(db) as unknown as PGlite),
      shutdown: async () => {
        try {
          await db.close();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

/** Opens the app's database, brings its schema up to date (or checks it is), and wraps it in Prisma. */
export async function openDatabase<C extends PrismaLike>(options: OpenDatabaseOptions<C>): Promise<Database<C>> {
  const engine = options.url
    ? await openPostgres(options.url, options.poolMax ?? 10)
    : await openPglite(options.dataDir, options.thread ?? true, options.stallMs);
  const { driver } = engine;
  let appliedMigrations: string[] = [];
  try {
    const migrations = await readMigrations(options.migrationsDir);
    const mode = options.migrate === 'auto' ? (driver.kind === 'pglite' ? 'apply' : 'verify') : options.migrate;
    if (mode === 'apply') {
      appliedMigrations = await applyMigrations(driver, migrations);
    } else {
      const { pending } = await migrationStatus(driver, migrations);
      if (pending.length > 0) {
        throw new MigrationError(
          `the database lacks migrations ${pending.join(', ')}; run the migrate command (the migrate job in a cluster) first`,
        );
      }
    }
  } catch (err) {
    await engine.shutdown();
    throw options.url ? describePostgresFailure(options.url, err) : err;
  }
  const autovacuum = new Autovacuum(driver, { onError: options.onBackgroundError });
  try {
    await autovacuum.start();
  } catch (err) {
    await engine.shutdown();
    throw err;
  }

  const prisma = options.createClient(engine.adapter);
  let closing: Promise<void> | undefined;
  return {
    kind: driver.kind,
    prisma,
    sql: driver,
    appliedMigrations,
    autovacuum,
    alive() {
      const failure = engine.failure?.();
      if (failure) throw failure;
    },
    async ping() {
      try {
        const failure = engine.failure?.();
        if (failure) throw failure;
        await driver.query('SELECT 1');
      } catch (err) {
        throw options.url ? describePostgresFailure(options.url, err) : err;
      }
    },
    listen: (channel, onNotify) => {
      if (!options.url) return Promise.resolve(async () => {});
      const { logger } = options;
      const failures = new FailureLog(`LISTEN ${channel} on Postgres at ${postgresAddress(options.url)}`);
      return listenPostgres(options.url, channel, onNotify, {
        ...(logger && {
          onDown: (err) => failures.failed(logger, err, { dependency: 'database' }),
          onUp: () => failures.recovered(logger, { dependency: 'database' }),
        }),
      });
    },
    unavailable: (err) => (options.url ? postgresFailure(options.url, err) : embeddedFailure(options.dataDir, err)),
    close() {
      closing ??= (async () => {
        try {
          await autovacuum.close();
          await prisma.$disconnect();
        } finally {
          await engine.shutdown();
        }
      })();
      return closing;
    },
  };
}

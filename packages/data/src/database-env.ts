import { type EnvSchema, env } from '@trove/service-kit';

/** The variables of every app that keeps data: which database, and how migrations run at start. */
export function databaseEnv(service: string) {
  return {
    DATABASE_URL: env.url({
      description: 'Postgres connection URL; unset means the embedded database (PGlite) under DATA_DIR',
      protocols: ['postgres:', 'postgresql:'],
    }),
    DATA_DIR: env.string({
      description:
        'Directory of the embedded database files (unused with DATABASE_URL); `memory://` keeps them in memory',
      default: `./data/${service}`,
      hint: 'a directory path or memory://',
    }),
    EMBEDDED_DATABASE_THREAD: env.bool({
      description:
        'Run the embedded database on a thread of its own: more throughput under concurrent load; `false` runs it in the service thread, a little less latency for one client sending one request at a time',
      default: true,
    }),
    DATABASE_POOL_MAX: env.int({
      description: 'Most Postgres connections this process opens',
      default: 10,
      min: 1,
      max: 200,
    }),
    MIGRATE_ON_START: env.oneOf(['auto', 'apply', 'verify'] as const, {
      description:
        '`apply` pending migrations at start, or only `verify` none is pending; `auto` applies on the embedded database and verifies on Postgres, where the migrate job applies them',
      default: 'auto',
    }),
  } satisfies EnvSchema;
}

type DatabaseConfig = {
  readonly DATABASE_URL: string | undefined;
  readonly DATA_DIR: string;
  readonly EMBEDDED_DATABASE_THREAD: boolean;
  readonly DATABASE_POOL_MAX: number;
  readonly MIGRATE_ON_START: 'auto' | 'apply' | 'verify';
};

/** Maps the validated database variables onto `openDatabase` options. */
export function databaseOptions(config: DatabaseConfig) {
  return {
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    thread: config.EMBEDDED_DATABASE_THREAD,
    poolMax: config.DATABASE_POOL_MAX,
    migrate: config.MIGRATE_ON_START,
  };
}

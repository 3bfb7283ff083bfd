/**
 * The data layer of each app that keeps data, through its generated Prisma client and the driver
 * adapters: always on the embedded database, and on a real Postgres when TEST_DATABASE_URL is set
 * (a throwaway database per run, dropped afterwards).
 */
import { createThrowawayDatabase, type ThrowawayDatabase } from '@trove/data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig as readErrorsConfig } from '../apps/errors-api/src/config.ts';
import { openErrorsDatabase } from '../apps/errors-api/src/db.ts';
import { readConfig as readMemoryConfig } from '../apps/memory-api/src/config.ts';
import { openMemoryDatabase } from '../apps/memory-api/src/db.ts';
import type { PrismaClient as MemoryPrisma } from '../apps/memory-api/src/generated/prisma/client.ts';
import { freePort, spawnTs, startApp } from './support/processes.ts';
import { missing } from './support/requirements.ts';

const serverUrl = process.env.TEST_DATABASE_URL;

const apps = [
  { app: 'memory-api', open: (env: Record<string, string>) => openMemoryDatabase(readMemoryConfig(env)) },
  { app: 'errors-api', open: (env: Record<string, string>) => openErrorsDatabase(readErrorsConfig(env)) },
] as const;

const engines = [
  { engine: 'pglite', env: async () => ({ env: { DATA_DIR: 'memory://' }, drop: async () => {} }) },
  ...(serverUrl && !missing('postgres')
    ? [
        {
          engine: 'postgres',
          env: async () => {
            const database = await createThrowawayDatabase(serverUrl, 'prisma');
            return { env: { DATABASE_URL: database.url, MIGRATE_ON_START: 'apply' }, drop: () => database.drop() };
          },
        },
      ]
    : []),
];

describe.each(apps.flatMap((a) => engines.map((e) => ({ ...a, ...e }))))('$app Prisma client on $engine', (c) => {
  it('writes, reads, updates and rolls back through the driver adapter', async () => {
    const target = await c.env();
    const db = await c.open(target.env);
    try {
      // Both apps' clients are generated with the same ServiceMeta model; one type serves the test.
      const prisma = db.prisma as MemoryPrisma;
      await prisma.serviceMeta.create({ data: { key: 'schema_owner', value: { app: c.app, n: 1 } } });
      const created = await prisma.serviceMeta.findUniqueOrThrow({ where: { key: 'schema_owner' } });
      expect(created.value).toEqual({ app: c.app, n: 1 });

      await new Promise((r) => setTimeout(r, 5));
      const updated = await prisma.serviceMeta.update({ where: { key: 'schema_owner' }, data: { value: { n: 2 } } });
      expect(updated.value).toEqual({ n: 2 });
      expect(updated.updatedAt.getTime()).toBeGreaterThan(created.updatedAt.getTime());

      await expect(
        prisma.$transaction(async (tx) => {
          await tx.serviceMeta.create({ data: { key: 'half_written', value: {} } });
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await prisma.serviceMeta.count()).toBe(1);

      // Prisma rows and raw SQL see the same database.
      expect(await db.sql.query('SELECT key FROM service_meta')).toEqual([{ key: 'schema_owner' }]);
    } finally {
      await db.close();
      await target.drop();
    }
  });
});

describe.skipIf(missing('postgres'))('migrate command against Postgres', () => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await createThrowawayDatabase(serverUrl as string, 'migrate');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('a replica refuses an unmigrated database; the migrate job fixes it; the replica then starts', async () => {
    const env = { DATABASE_URL: database.url };
    const refused = spawnTs('apps/errors-api/src/server.ts', { ...env, PORT: String(await freePort()) });
    expect((await refused.exit).code).toBe(1);
    expect(refused.output()).toContain('the database lacks migrations');

    const job = spawnTs('apps/errors-api/src/migrate.ts', env);
    expect((await job.exit).code).toBe(0);
    expect(job.output()).toMatch(/errors-api: applied \d+ migration\(s\): \d{14}_init, /);

    const again = spawnTs('apps/errors-api/src/migrate.ts', env);
    expect((await again.exit).code).toBe(0);
    expect(again.output()).toContain('errors-api: database schema is up to date');

    const app = await startApp('errors-api', env);
    expect(await (await fetch(`${app.url}/readyz`)).json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    expect((await app.stop()).code).toBe(0);
  });
});

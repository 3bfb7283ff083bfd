import { fileURLToPath } from 'node:url';
import { type Database, databaseOptions, openDatabase } from '@trove/data';
import type { Logger } from '@trove/service-kit';
import type { MemoryConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../prisma/memory/migrations', import.meta.url));

export type MemoryDatabase = Database<PrismaClient>;

export function openMemoryDatabase(
  config: MemoryConfig,
  migrate = config.MIGRATE_ON_START,
  logger?: Logger,
): Promise<MemoryDatabase> {
  return openDatabase({
    ...databaseOptions(config),
    migrate,
    onBackgroundError: (err) => logger?.warn({ err }, 'embedded database upkeep (vacuum, analyse) failed'),
    ...(logger && { logger }),
    migrationsDir: MIGRATIONS_DIR,
    createClient: (adapter) => new PrismaClient({ adapter }),
  });
}

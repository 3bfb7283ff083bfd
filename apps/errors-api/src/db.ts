import { fileURLToPath } from 'node:url';
import { type Database, databaseOptions, openDatabase } from '@trove/data';
import type { Logger } from '@trove/service-kit';
import type { ErrorsConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../prisma/errors/migrations', import.meta.url));

export type ErrorsDatabase = Database<PrismaClient>;

export function openErrorsDatabase(
  config: ErrorsConfig,
  migrate = config.MIGRATE_ON_START,
  logger?: Logger,
): Promise<ErrorsDatabase> {
  return openDatabase({
    ...databaseOptions(config),
    migrate,
    onBackgroundError: (err) => logger?.warn({ err }, 'embedded database upkeep (vacuum, analyse) failed'),
    ...(logger && { logger }),
    migrationsDir: MIGRATIONS_DIR,
    createClient: (adapter) => new PrismaClient({ adapter }),
  });
}

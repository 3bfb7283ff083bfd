import { fileURLToPath } from 'node:url';
import { type Database, databaseOptions, openDatabase } from '@trove/data';
import type { ErrorsConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../prisma/errors/migrations', import.meta.url));

export type ErrorsDatabase = Database<PrismaClient>;

export function openErrorsDatabase(config: ErrorsConfig, migrate = config.MIGRATE_ON_START): Promise<ErrorsDatabase> {
  return openDatabase({
    ...databaseOptions(config),
    migrate,
    migrationsDir: MIGRATIONS_DIR,
    createClient: (adapter) => new PrismaClient({ adapter }),
  });
}

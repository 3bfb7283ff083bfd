import { fileURLToPath } from 'node:url';
import { type Database, databaseOptions, openDatabase } from '@trove/data';
import type { MemoryConfig } from './config.ts';
import { PrismaClient } from './generated/prisma/client.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../prisma/memory/migrations', import.meta.url));

export type MemoryDatabase = Database<PrismaClient>;

export function openMemoryDatabase(config: MemoryConfig, migrate = config.MIGRATE_ON_START): Promise<MemoryDatabase> {
  return openDatabase({
    ...databaseOptions(config),
    migrate,
    migrationsDir: MIGRATIONS_DIR,
    createClient: (adapter) => new PrismaClient({ adapter }),
  });
}

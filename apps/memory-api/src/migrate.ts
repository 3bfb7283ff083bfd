/** The migrate command (a Job in a cluster): applies pending migrations to DATABASE_URL and exits. */
import { runMigrateCommand } from '@trove/data';
import { readConfig } from './config.ts';
import { openMemoryDatabase } from './db.ts';

await runMigrateCommand('memory-api', () => openMemoryDatabase(readConfig(), 'apply'));

/** The migrate command (a Job in a cluster): applies pending migrations to DATABASE_URL and exits. */
import { runMigrateCommand } from '@trove/data';
import { readConfig } from './config.ts';
import { openErrorsDatabase } from './db.ts';

await runMigrateCommand('errors-api', () => openErrorsDatabase(readConfig(), 'apply'));

import { ConfigError, EXIT_CONFIG } from '@trove/service-kit';
import type { Database, PrismaLike } from './database.ts';

/**
 * Body of each app's `migrate` command, which a cluster runs as a Job before rolling out a new
 * version (replicas only verify the schema): open with migrations applied, report, close.
 */
export async function runMigrateCommand(service: string, open: () => Promise<Database<PrismaLike>>): Promise<never> {
  try {
    const db = await open();
    const applied = db.appliedMigrations;
    await db.close();
    console.log(
      applied.length > 0
        ? `${service}: applied ${applied.length} migration(s): ${applied.join(', ')}`
        : `${service}: database schema is up to date`,
    );
    process.exit(0);
  } catch (err) {
    process.stderr.write(
      `${service}: ${err instanceof ConfigError ? '' : 'migrate failed: '}${(err as Error).message}\n`,
    );
    process.exit(err instanceof ConfigError ? EXIT_CONFIG : 1);
  }
}

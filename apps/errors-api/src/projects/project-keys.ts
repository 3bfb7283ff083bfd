import type { Logger } from '@trove/service-kit';
import type { SharedState } from '@trove/shared-state';
import type { ErrorsDatabase } from '../db.ts';
import { ReplicatedCache } from '../replicated-cache.ts';

export interface IngestProject {
  id: number;
  slug: string;
  dsnKey: string;
}

/** A safety net only: rotation and deletion invalidate at once, on every replica, through pub/sub. */
const TTL_MS = 30_000;

/**
 * Ingest looks up a project for every envelope; caching it keeps that off the database. Any change
 * to a key drops the entry here before the change is answered, and on other replicas through the
 * shared-state channel, so a rotated key stops working at once.
 */
export class ProjectKeys {
  private readonly cache: ReplicatedCache<IngestProject>;

  constructor(
    private readonly db: ErrorsDatabase,
    state: SharedState,
    logger: Logger,
  ) {
    this.cache = new ReplicatedCache(state, 'project-keys', TTL_MS, logger);
  }

  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  find(projectId: number): Promise<IngestProject | undefined> {
    return this.cache.get(projectId, async () => {
      const rows = await this.db.sql.query<{ id: number; slug: string; dsn_key: string }>(
        'SELECT id, slug, dsn_key FROM projects WHERE id = $1',
        [projectId],
      );
      const row = rows[0];
      return row && { id: row.id, slug: row.slug, dsnKey: row.dsn_key };
    });
  }

  invalidate(projectId: number): Promise<void> {
    return this.cache.invalidate(projectId);
  }
}

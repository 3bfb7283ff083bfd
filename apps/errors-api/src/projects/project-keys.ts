import type { SharedState } from '@trove/shared-state';
import type { ErrorsDatabase } from '../db.ts';

export interface IngestProject {
  id: number;
  slug: string;
  dsnKey: string;
}

const CHANNEL = 'project-keys';
/** A safety net only: rotation and deletion invalidate at once, on every replica, through pub/sub. */
const TTL_MS = 30_000;

/**
 * Ingest looks up a project for every envelope; caching it keeps that off the database. Any change
 * to a key drops the entry here before the change is answered, and on other replicas through the
 * shared-state channel, so a rotated key stops working at once.
 */
export class ProjectKeys {
  private readonly cache = new Map<number, { project: IngestProject; expiresAt: number }>();
  private unsubscribe?: () => Promise<void>;

  constructor(
    private readonly db: ErrorsDatabase,
    private readonly state: SharedState,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.state.subscribe(CHANNEL, (message) => {
      this.cache.delete(Number(message));
    });
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  async find(projectId: number): Promise<IngestProject | undefined> {
    const cached = this.cache.get(projectId);
    if (cached && cached.expiresAt > Date.now()) return cached.project;
    const rows = await this.db.sql.query<{ id: number; slug: string; dsn_key: string }>(
      'SELECT id, slug, dsn_key FROM projects WHERE id = $1',
      [projectId],
    );
    const row = rows[0];
    if (!row) {
      this.cache.delete(projectId);
      return undefined;
    }
    const project = { id: row.id, slug: row.slug, dsnKey: row.dsn_key };
    this.cache.set(projectId, { project, expiresAt: Date.now() + TTL_MS });
    return project;
  }

  async invalidate(projectId: number): Promise<void> {
    this.cache.delete(projectId);
    await this.state.publish(CHANNEL, String(projectId));
  }
}

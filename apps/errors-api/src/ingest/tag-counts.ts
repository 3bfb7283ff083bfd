import type { Logger } from '@trove/service-kit';
import type { ErrorsDatabase } from '../db.ts';

interface Pending {
  issue_id: string;
  project_id: number;
  key: string;
  value: string;
  n: number;
  first_seen: string;
  last_seen: string;
}

// Sorted, so that replicas flushing at once lock rows in one order and cannot deadlock.
const FLUSH_SQL = `
  INSERT INTO issue_tags AS g (issue_id, project_id, key, value, times_seen, first_seen, last_seen)
  SELECT x.issue_id, x.project_id, x.key, x.value, x.n, x.first_seen, x.last_seen
  FROM json_to_recordset($1::json) AS x(issue_id uuid, project_id int, key text, value text, n int,
    first_seen timestamptz, last_seen timestamptz)
  WHERE EXISTS (SELECT 1 FROM issues i WHERE i.id = x.issue_id)
  ORDER BY x.issue_id, x.key, x.value
  ON CONFLICT (issue_id, key, value) DO UPDATE SET
    times_seen = g.times_seen + EXCLUDED.times_seen,
    last_seen = GREATEST(g.last_seen, EXCLUDED.last_seen)`;

/**
 * Tag counts per issue, added up in memory and written in one statement at most every
 * `intervalMs`: counting them inside the ingest statement (a row upsert per tag value per batch)
 * cost it 10-30% of its speed on the embedded database. Searches by tag and the tag and release
 * lists therefore lag ingest by up to a second; a crash loses at most that second's tag counts
 * (never events or issue counts).
 */
export class TagCounts {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: ErrorsDatabase,
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
  ) {}

  add(projectId: number, issueId: string, tags: [string, string][], receivedAt: string): void {
    for (const [key, value] of tags) {
      const id = `${issueId}\u0000${key}\u0000${value}`;
      const row = this.pending.get(id);
      if (row) {
        row.n++;
        if (receivedAt > row.last_seen) row.last_seen = receivedAt;
        if (receivedAt < row.first_seen) row.first_seen = receivedAt;
      } else {
        this.pending.set(id, {
          issue_id: issueId,
          project_id: projectId,
          key,
          value,
          n: 1,
          first_seen: receivedAt,
          last_seen: receivedAt,
        });
      }
    }
    if (!this.timer && this.pending.size > 0) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes what is pending (and waits for a write in progress). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    this.running = this.running.then(async () => {
      if (rows.length === 0) return;
      try {
        await this.db.sql.query(FLUSH_SQL, [JSON.stringify(rows)]);
      } catch (err) {
        this.logger.warn({ err, rows: rows.length }, 'could not write tag counts; these are lost');
      }
    });
    return this.running;
  }
}

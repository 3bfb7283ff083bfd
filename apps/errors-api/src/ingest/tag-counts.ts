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

/** How many (issue, key, value) rows a replica remembers as written; past it, it starts over. */
const KNOWN_MAX = 100_000;

/**
 * Tag counts per issue, added up in memory and written in one statement: counting them inside the
 * ingest statement (a row upsert per tag value per batch) cost it 10-30% of its speed on the
 * embedded database. A tag value an issue has not had yet (as far as this replica knows) is written
 * within `newMs` (1 s), so searches by tag and the tag and release lists find it that soon; the
 * counts of values already written are added every `countMs` (10 s). Rewriting every row each
 * second cost the embedded database about 10 ms a second (the upsert of a few hundred rows, then
 * vacuuming and analysing their dead versions), 4-8% of ingest's CPU at a few hundred events a
 * second. A crash loses at most those seconds' tag counts (never events or issue counts).
 */
export class TagCounts {
  private pending = new Map<string, Pending>();
  /** Rows this replica wrote: their counts can wait for the slower flush. */
  private known = new Set<string>();
  /** Whether `pending` holds a row not in `known`. */
  private unseen = false;
  private newTimer: NodeJS.Timeout | undefined;
  private countTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: ErrorsDatabase,
    private readonly logger: Logger,
    private readonly newMs = 1000,
    private readonly countMs = 10_000,
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
        if (!this.unseen && !this.known.has(id)) this.unseen = true;
      }
    }
    if (this.unseen && !this.newTimer) {
      this.newTimer = setTimeout(() => void this.write(false), this.newMs);
      this.newTimer.unref();
    }
    if (!this.countTimer && this.pending.size > 0) {
      this.countTimer = setTimeout(() => void this.write(true), this.countMs);
      this.countTimer.unref();
    }
  }

  /** Writes what is pending (and waits for a write in progress). */
  flush(): Promise<void> {
    return this.write(true);
  }

  /** Every pending row, or (`all` false) only those not written before. */
  private write(all: boolean): Promise<void> {
    clearTimeout(this.newTimer);
    this.newTimer = undefined;
    this.unseen = false;
    if (all) {
      clearTimeout(this.countTimer);
      this.countTimer = undefined;
    }
    const rows: Pending[] = [];
    for (const [id, row] of this.pending) {
      if (!all && this.known.has(id)) continue;
      rows.push(row);
      this.pending.delete(id);
      if (this.known.size >= KNOWN_MAX) this.known.clear();
      this.known.add(id);
    }
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

import type { SqlDriver } from './driver.ts';

/**
 * Keeps the query planner's statistics current on the embedded database. Postgres servers do this
 * with autovacuum; PGlite has no background workers, so without it a table that grew from empty
 * to 100k rows is still planned as nearly empty (full-text recall then AND-ed a bitmap of every
 * row into each search: 30 ms instead of 20 at 100k memories). Apps report how many rows they
 * wrote; past autovacuum's default threshold (50 rows plus 10% of the table) the table is
 * analysed soon after, off the request that crossed it. On Postgres this does nothing.
 */
export class PlannerStatistics {
  private readonly pending = new Map<string, number>();
  private readonly sizeAtAnalyze = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: SqlDriver,
    private readonly options: { delayMs?: number; onError?: (err: unknown) => void } = {},
  ) {}

  private get active(): boolean {
    return this.sql.kind === 'pglite';
  }

  /** Analyses the tables now when their statistics are missing or off by more than the threshold. */
  async refreshIfStale(tables: string[]): Promise<string[]> {
    if (!this.active) return [];
    const stale: string[] = [];
    for (const table of tables) {
      const [row] = await this.sql.query<{ estimated: number; actual: number }>(
        `SELECT c.reltuples::float8 AS estimated, (SELECT count(*) FROM ${quoteIdent(table)})::float8 AS actual
           FROM pg_class c WHERE c.oid = to_regclass($1)`,
        [table],
      );
      if (!row) continue;
      const estimated = Number(row.estimated);
      const actual = Number(row.actual);
      this.sizeAtAnalyze.set(table, Math.max(estimated, 0));
      if (estimated < 0 || Math.abs(actual - estimated) > threshold(estimated)) stale.push(table);
    }
    if (stale.length > 0) await this.analyze(stale);
    return stale;
  }

  /** Counts rows written (inserted, updated or deleted) to a table. */
  wrote(table: string, rows: number): void {
    if (!this.active || rows <= 0) return;
    const total = (this.pending.get(table) ?? 0) + rows;
    this.pending.set(table, total);
    if (total > threshold(this.sizeAtAnalyze.get(table) ?? 0) && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        const due = [...this.pending].filter(([t, n]) => n > threshold(this.sizeAtAnalyze.get(t) ?? 0));
        if (due.length > 0) void this.analyze(due.map(([t]) => t)).catch((err) => this.options.onError?.(err));
      }, this.options.delayMs ?? 200);
      this.timer.unref();
    }
  }

  private analyze(tables: string[]): Promise<void> {
    this.running = this.running.then(async () => {
      for (const table of tables) {
        this.pending.delete(table);
        await this.sql.exec(`ANALYZE ${quoteIdent(table)}`);
        const [row] = await this.sql.query<{ n: number }>(
          'SELECT reltuples::float8 AS n FROM pg_class WHERE oid = to_regclass($1)',
          [table],
        );
        this.sizeAtAnalyze.set(table, Math.max(Number(row?.n ?? 0), 0));
      }
    });
    return this.running;
  }

  /** Waits for an analysis in progress; cancels one not yet started. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running.catch(() => {});
  }
}

/** Autovacuum's default: analyse after 50 rows plus 10% of the table have changed. */
const threshold = (rows: number) => 50 + 0.1 * rows;

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad table name ${JSON.stringify(name)}`);
  return `"${name}"`;
}

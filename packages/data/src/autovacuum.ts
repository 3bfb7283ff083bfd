import type { SqlDriver } from './driver.ts';

interface TableActivity {
  table: string;
  /** The planner's row estimate; -1 when the table was never analysed. */
  reltuples: number;
  deadRows: number;
  modifiedSinceAnalyze: number;
  /** Rows inserted or updated other than in place (HOT) since start: each added index entries. */
  indexedWrites: number;
  hasGin: boolean;
}

/** What `check` did to one table. */
export interface Upkeep {
  table: string;
  action: 'vacuum' | 'analyze' | 'merge-gin';
}

/**
 * What autovacuum does on a Postgres server, for the embedded database. PGlite runs no background
 * workers, so without this:
 * - a table that grew from empty to 100k rows is still planned as nearly empty (full-text recall
 *   then AND-ed a bitmap of every row into each search: 30 ms instead of 20 at 100k memories);
 * - rows updated over and over (an issue's count on every event) leave dead versions that every
 *   later lookup wades through: ingest slowed from 0.3 to 0.7 ms per event within 15k events;
 * - GIN indexes keep new entries in an unsorted pending list that every search scans whole (a
 *   1 MB list added 5 ms to each full-text query at 100k memories).
 * Every `intervalMs` it reads the activity counters (PGlite keeps them, but flushes them only when
 * asked) and applies autovacuum's default rules: vacuum after 50 rows + 20% of the table died,
 * analyse after 50 + 10% changed. Unlike a server's, this upkeep holds up every statement while it
 * runs, so it leaves out what we do not need: no vacuum of insert-only tables (GIN pending lists
 * are merged after every 1000 rows inserted or moved by an update instead) and a small analyse
 * sample. The counters start at zero in each process, so `start` catches up first. On Postgres
 * this does nothing.
 */
export class Autovacuum {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<Upkeep[]> = Promise.resolve([]);
  private closed = false;
  /** `indexedWrites` when each table's GIN pending lists were last merged. */
  private readonly writesAtMerge = new Map<string, number>();

  constructor(
    private readonly sql: SqlDriver,
    private readonly options: { intervalMs?: number; onError?: (err: unknown) => void } = {},
  ) {}

  /**
   * Catches up on what the last process left (its counters die with it): analyses tables whose
   * statistics are missing or far off, vacuums every table (which also merges GIN pending lists;
   * 0.5 s at 100k memories after a busy run, 15 ms when there is nothing to do), then checks
   * every `intervalMs`.
   */
  async start(): Promise<string[]> {
    if (this.sql.kind !== 'pglite') return [];
    const analysed: string[] = [];
    for (const t of await this.activity()) {
      const name = quoteIdent(t.table);
      const [row] = await this.sql.query<{ n: number }>(`SELECT count(*)::float8 AS n FROM ${name}`);
      const actual = Number(row?.n ?? 0);
      const estimated = Number(t.reltuples);
      if (estimated < 0 ? actual > 0 : Math.abs(actual - estimated) > analyzeThreshold(estimated)) {
        await this.analyze(t.table);
        analysed.push(t.table);
      }
      await this.sql.exec(`VACUUM ${name}`);
      // The vacuum merged every pending GIN entry counted so far.
      this.writesAtMerge.set(t.table, Number(t.indexedWrites));
    }
    this.schedule();
    return analysed;
  }

  /** Reads the counters now and does what is due; resolves when it is done. */
  check(): Promise<Upkeep[]> {
    this.running = this.running.then(
      () => this.checkNow(),
      () => this.checkNow(),
    );
    return this.running;
  }

  /** Stops checking; waits for work in progress. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running.catch(() => {});
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.check()
        .catch((err) => this.options.onError?.(err))
        .finally(() => this.schedule());
    }, this.options.intervalMs ?? 1000);
    this.timer.unref();
  }

  private async analyze(table: string): Promise<void> {
    // Every statement waits while this runs: a 3,000-row sample instead of 30,000 makes it 10x
    // shorter (20 ms for 40k events) and is plenty to choose plans with.
    await this.sql.exec(`SET LOCAL default_statistics_target = 10; ANALYZE ${quoteIdent(table)}`);
  }

  /** Every table's activity counters since start. */
  private async activity(): Promise<TableActivity[]> {
    // The counters reach the statistics views only when flushed: this flushes them after it.
    await this.sql.query('SELECT pg_stat_force_next_flush()');
    return this.sql.query<TableActivity>(
      `SELECT s.relname AS table, c.reltuples::float8 AS reltuples, s.n_dead_tup::float8 AS "deadRows",
              s.n_mod_since_analyze::float8 AS "modifiedSinceAnalyze",
              (s.n_tup_ins + s.n_tup_upd - s.n_tup_hot_upd)::float8 AS "indexedWrites",
              EXISTS (SELECT 1 FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
                        JOIN pg_am a ON a.oid = ic.relam WHERE i.indrelid = s.relid AND a.amname = 'gin') AS "hasGin"
         FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
        WHERE s.schemaname = current_schema()`,
    );
  }

  private async checkNow(): Promise<Upkeep[]> {
    if (this.sql.kind !== 'pglite' || this.closed) return [];
    const tables = await this.activity();
    const done: Upkeep[] = [];
    for (const t of tables) {
      const name = quoteIdent(t.table);
      const writes = Number(t.indexedWrites);
      if (t.deadRows > vacuumThreshold(Math.max(t.reltuples, 0))) {
        // VACUUM also merges GIN pending lists.
        await this.sql.exec(`VACUUM ${name}`);
        this.writesAtMerge.set(t.table, writes);
        done.push({ table: t.table, action: 'vacuum' });
      }
      if (t.modifiedSinceAnalyze > analyzeThreshold(t.reltuples)) {
        await this.analyze(t.table);
        done.push({ table: t.table, action: 'analyze' });
      }
      if (t.hasGin && writes - (this.writesAtMerge.get(t.table) ?? 0) > GIN_MERGE_WRITES) {
        await this.sql.query(
          `SELECT gin_clean_pending_list(i.indexrelid) FROM pg_index i
             JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
            WHERE i.indrelid = to_regclass($1) AND a.amname = 'gin'`,
          [t.table],
        );
        this.writesAtMerge.set(t.table, writes);
        done.push({ table: t.table, action: 'merge-gin' });
      }
    }
    return done;
  }
}

/** Autovacuum's defaults: analyse after 50 rows plus 10% of the table changed... */
const analyzeThreshold = (rows: number) => 50 + 0.1 * Math.max(rows, 0);
/** ...and vacuum after 50 plus 20% of it died. */
const vacuumThreshold = (rows: number) => 50 + 0.2 * rows;
const GIN_MERGE_WRITES = 1000;

/** Table names come from the catalog; quoted, any name is safe in a statement. */
const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

import type { PreparedQuery } from '@trove/data';
import type { MemoryDatabase } from '../db.ts';

/** The channel the change-log triggers notify (see the vector_changes migration). */
export const FEED_CHANNEL = 'trove_vector_changes';

export interface FeedChanges {
  memories: string[];
  documents: string[];
}

export interface VectorFeedOptions {
  /** Read the log this often besides on NOTIFY, so a lost notification costs at most this long. */
  pollMs: number;
  /** Changes older than this many seconds are trimmed from the log (by any replica). */
  retentionS: number;
  /** Re-reads the named rows into the indexes (idempotent: a change may be applied twice). */
  apply(changes: FeedChanges): Promise<void>;
  /** Rebuilds the indexes from the rows (at start, and when the log was trimmed past the position). */
  rebuild(): Promise<void>;
  /**
   * For an index that outlives the replicas (a shared one): where it was left, so a start catches
   * up from there instead of rebuilding (null: never built, rebuild), and how to record progress.
   */
  saved?: {
    load(): Promise<number | null>;
    store(position: number): Promise<void>;
  };
  onError(err: unknown): void;
}

/**
 * An id below changes already read that is not in the log yet is a transaction still running (ids
 * are taken at insert, rows appear at commit) or one rolled back. The position waits this long
 * for it; changes after it are applied meanwhile, so the wait delays nothing but the position.
 */
const GAP_WAIT_MS = 10_000;
const PAGE = 5000;
const TRIM_EVERY_MS = 60_000;
/** A saved position is written at most this often (and once more on stop). */
const SAVE_EVERY_MS = 1_000;

/**
 * Keeps this replica's in-process indexes current with writes from every replica. Triggers append
 * each change of a memory's or document's vector or filter fields to `vector_changes` in the
 * writing transaction; this reads the log in id order from its position, woken by NOTIFY (and a
 * poll), and applies each change by re-reading the row. Starting, it takes its position before
 * building the indexes, so nothing committed during the build is missed.
 */
export class VectorFeed {
  /** Every change with an id up to here has been applied (or was a rolled-back id). */
  position = 0;
  /** Ids above the position already applied. */
  private readonly seen = new Set<number>();
  private gap: { at: number; since: number } | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>) | undefined;
  private readonly readLog: PreparedQuery;
  private savedPosition = 0;
  private lastSave = 0;
  /** Every change committed before this time has been applied (meaningful while behind). */
  private appliedUpTo = Date.now();
  private failing = false;

  constructor(
    private readonly db: MemoryDatabase,
    private readonly options: VectorFeedOptions,
  ) {
    // One round trip: the trim horizon and the next page of changes (a row of nulls when none).
    this.readLog = db.sql.prepare(
      'vector_feed_read',
      `SELECT h.trimmed_through::text AS horizon, c.id::text AS id, c.entity, c.entity_id::text AS entity_id
         FROM vector_change_horizon h
         LEFT JOIN LATERAL (SELECT * FROM vector_changes WHERE id > $1::bigint ORDER BY id LIMIT $2::int) c ON true
        WHERE h.id = 1 ORDER BY c.id`,
    );
  }

  /** Takes a position (a saved one, or a new one and a rebuild), then follows the log. */
  async start(): Promise<void> {
    const saved = await this.options.saved?.load();
    const horizon = await this.horizon();
    if (saved !== undefined && saved !== null && saved >= horizon) {
      this.position = saved;
      this.savedPosition = saved;
      await this.pull();
    } else {
      await this.resync();
    }
    this.unlisten = await this.db.listen(FEED_CHANNEL, () => void this.catchUp());
    this.timers.push(setInterval(() => void this.catchUp(), this.options.pollMs));
    this.timers.push(setInterval(() => void this.trim().catch(this.options.onError), TRIM_EVERY_MS));
    for (const t of this.timers) t.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await this.unlisten?.();
    await this.running;
    await this.save(true).catch(this.options.onError);
  }

  /**
   * Seconds this replica's indexes may be behind the log: since the start of the last read that
   * got to its end, while a read runs or the last one failed; 0 when caught up. Grows without bound
   * while reads or applies keep failing (database or index out of reach), which is what to alert on.
   */
  lagSeconds(now = Date.now()): number {
    return this.running || this.failing ? Math.max(0, now - this.appliedUpTo) / 1000 : 0;
  }

  /**
   * Applies every change committed before this call. Concurrent callers share a read; one that
   * arrives during a read gets another read after it, which is then sure to see its changes.
   */
  catchUp(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    // Caught up until now, as far as anyone knows, unless the last read failed.
    if (!this.failing) this.appliedUpTo = Date.now();
    this.running = (async () => {
      try {
        do {
          this.again = false;
          const started = Date.now();
          await this.pull();
          this.appliedUpTo = started;
          this.failing = false;
        } while (this.again && !this.stopped);
      } catch (err) {
        this.failing = true;
        this.options.onError(err);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Deletes changes older than the retention and moves the horizon past them. */
  async trim(retentionS = this.options.retentionS): Promise<number> {
    const [row] = await this.db.sql.query<{ trimmed: number }>(
      `WITH gone AS (DELETE FROM vector_changes WHERE created_at < now() - make_interval(secs => $1::float8) RETURNING id),
            moved AS (UPDATE vector_change_horizon SET trimmed_through = GREATEST(trimmed_through, (SELECT max(id) FROM gone))
                       WHERE id = 1 AND EXISTS (SELECT 1 FROM gone) RETURNING 1)
       SELECT (SELECT count(*) FROM gone)::int AS trimmed, (SELECT count(*) FROM moved)::int AS moved`,
      [retentionS],
    );
    return row?.trimmed ?? 0;
  }

  private async pull(): Promise<void> {
    let after = this.position;
    for (;;) {
      const rows = await this.readLog<{ horizon: string; id: string | null; entity: string; entity_id: string }>([
        after,
        PAGE,
      ]);
      if (Number(rows[0]?.horizon ?? 0) > this.position) {
        // Changes this replica never read are gone from the log: only the rows can tell.
        await this.resync();
        return;
      }
      const memories = new Set<string>();
      const documents = new Set<string>();
      const applying: number[] = [];
      let read = 0;
      for (const r of rows) {
        if (r.id === null) continue;
        read++;
        const id = Number(r.id);
        after = id;
        if (this.seen.has(id)) continue;
        applying.push(id);
        (r.entity === 'document' ? documents : memories).add(r.entity_id);
      }
      if (memories.size + documents.size > 0) {
        await this.options.apply({ memories: [...memories], documents: [...documents] });
      }
      // Only once applied: changes whose apply failed (an index out of reach) are read again.
      for (const id of applying) this.seen.add(id);
      this.advance();
      await this.save(false);
      if (read < PAGE || this.stopped) return;
    }
  }

  private async horizon(): Promise<number> {
    const [row] = await this.db.sql.query<{ horizon: string }>(
      'SELECT trimmed_through::text AS horizon FROM vector_change_horizon WHERE id = 1',
    );
    return Number(row?.horizon ?? 0);
  }

  /** Records the position of a saved index, at most every SAVE_EVERY_MS unless `now`. */
  private async save(now: boolean): Promise<void> {
    const { saved } = this.options;
    if (!saved || this.position <= this.savedPosition) return;
    if (!now && Date.now() - this.lastSave < SAVE_EVERY_MS) return;
    this.lastSave = Date.now();
    const position = this.position;
    await saved.store(position);
    this.savedPosition = position;
  }

  /** Moves the position over applied ids, and over a gap once it has waited GAP_WAIT_MS. */
  private advance(): void {
    for (;;) {
      const next = this.position + 1;
      if (this.seen.delete(next)) {
        this.position = next;
        continue;
      }
      if (this.seen.size === 0) {
        this.gap = undefined;
        return;
      }
      const now = Date.now();
      if (this.gap?.at !== next) this.gap = { at: next, since: now };
      if (now - this.gap.since < GAP_WAIT_MS) return;
      let lowest = Number.POSITIVE_INFINITY;
      for (const id of this.seen) if (id < lowest) lowest = id;
      this.position = lowest - 1;
      this.gap = undefined;
    }
  }

  /**
   * A position every change after which is still in the log, then a rebuild. Changes logged in the
   * last GAP_WAIT_MS are read again after it (harmless: applying is idempotent), since one of a
   * transaction still running may carry a lower id than one already committed.
   */
  private async resync(): Promise<void> {
    const [row] = await this.db.sql.query<{ position: string }>(
      `SELECT GREATEST(
         (SELECT trimmed_through FROM vector_change_horizon WHERE id = 1),
         (SELECT max(id) FROM vector_changes WHERE created_at < now() - make_interval(secs => $1::float8)),
         0)::text AS position`,
      [GAP_WAIT_MS / 1000],
    );
    this.position = Number(row?.position ?? 0);
    this.seen.clear();
    this.gap = undefined;
    await this.options.rebuild();
    await this.save(true);
  }
}

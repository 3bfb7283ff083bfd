import type { Logger } from '@trove/service-kit';
import type { ErrorsDatabase } from '../db.ts';
import type { IssueRow } from '../issues/issue-json.ts';
import { TagCounts } from './tag-counts.ts';

/** An event ready to store: grouped, titled, its payload compressed (base64 of raw deflate). */
export interface PreparedEvent {
  projectId: number;
  projectSlug: string;
  eventId: string;
  fingerprint: string;
  grouping: string;
  title: string;
  culprit: string | null;
  level: string;
  receivedAt: string;
  payload: string;
  /** Who hit the error (user id, e-mail, username or IP address), counted once per issue; null when unknown. */
  userKey: string | null;
  release: string | null;
  environment: string | null;
  /** The event's tags as `[key, value]` pairs, counted per issue once the event is committed. */
  tags: [string, string][];
}

/** What one committed write did to an issue; listeners turn these into live updates and alerts. */
export interface IssueChange {
  issue: IssueRow & { project_slug: string };
  created: boolean;
  reopened: boolean;
}

export type IssueChangeListener = (changes: IssueChange[]) => void;

interface Pending {
  event: PreparedEvent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * One statement stores a whole batch, through the errors_ingest_batch function of the migrations
 * (read it there): skip events already stored, upsert one issue per fingerprint, insert the events.
 * A single statement is atomic on both engines, so an answered event is committed with its issue,
 * and a crash leaves neither half.
 */
const WRITE_BATCH_SQL = 'SELECT errors_ingest_batch($1::json) AS row';

type BatchRow = IssueRow & { previous_status: string | null; created: boolean; stored_event_ids: string[] | null };

/** The batch as the ingest function reads it: built as text, since JSON.stringify of the whole is slower. */
export function batchJson(events: PreparedEvent[]): string {
  return `[${events
    .map(
      (e, ord) =>
        `{"ord":${ord},"project_id":${e.projectId},"event_id":${JSON.stringify(e.eventId)},"fingerprint":"${e.fingerprint}","grouping":${e.grouping},"title":${JSON.stringify(e.title)},"culprit":${JSON.stringify(e.culprit)},"level":"${e.level}","received_at":"${e.receivedAt}","payload":"${e.payload}","user_key":${JSON.stringify(e.userKey)},"release":${JSON.stringify(e.release)},"environment":${JSON.stringify(e.environment)}}`,
    )
    .join(',')}]`;
}

/**
 * Group commit: events that arrive while a write is in flight wait for the next one and share its
 * commit; many events per commit is what makes ingest fast. The embedded database is one
 * connection, so one write runs at a time there (keeping it free for reads in between); Postgres
 * gets a few in parallel, which overlap their commits' disk flushes.
 */
export class EventWriter {
  private queue: Pending[] = [];
  private active = 0;
  private scheduled = false;
  private readonly listeners: IssueChangeListener[] = [];
  private readonly parallel: number;
  private readonly tags: TagCounts;

  constructor(
    private readonly db: ErrorsDatabase,
    private readonly batchMax: number,
    private readonly logger: Logger,
  ) {
    this.parallel = db.kind === 'postgres' ? 4 : 1;
    this.tags = new TagCounts(db, logger);
  }

  onIssueChanges(listener: IssueChangeListener): void {
    this.listeners.push(listener);
  }

  /** Resolves once the event is committed (or was already stored). */
  write(event: PreparedEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      this.schedule();
    });
  }

  /** Waits for queued events to be written, and their tags to be counted. */
  async flush(): Promise<void> {
    while (this.active > 0 || this.queue.length > 0) await new Promise((r) => setTimeout(r, 5));
    await this.tags.flush();
  }

  private schedule(): void {
    if (this.scheduled || this.active >= this.parallel || this.queue.length === 0) return;
    this.scheduled = true;
    // Let requests parsed in the same turn of the event loop join this batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.active++;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.batchMax);
        this.schedule();
        await this.writeBatch(batch);
      }
    } finally {
      this.active--;
      this.schedule();
    }
  }

  /**
   * A lost database connection gets the batch one more try, whatever its size (the statement skips
   * events already stored, so a commit whose answer was lost is not doubled); a second loss fails
   * the batch with an error that names the database (answered 503, and the SDKs send again).
   */
  private async writeBatch(batch: Pending[], retried = false): Promise<void> {
    try {
      const changes = await this.store(batch.map((p) => p.event));
      for (const p of batch) p.resolve();
      this.emit(changes);
    } catch (err) {
      const unavailable = this.db.unavailable(err);
      if (unavailable && !retried) {
        await this.writeBatch(batch, true);
        return;
      }
      if (unavailable) {
        // Splitting the batch finds a bad event, not a missing database: fail them all at once.
        for (const p of batch) p.reject(unavailable);
        return;
      }
      if (batch.length === 1) {
        batch[0]?.reject(err);
        return;
      }
      // One bad event must not fail its neighbours: write them one by one to find it.
      this.logger.warn({ err, events: batch.length }, 'batch write failed; retrying events one by one');
      for (const p of batch) await this.writeBatch([p]);
    }
  }

  private async store(events: PreparedEvent[]): Promise<IssueChange[]> {
    const slugs = new Map(events.map((e) => [e.projectId, e.projectSlug]));
    const input = batchJson(events);
    // The statement names the events it stored (not retries of stored ones): their tags are counted.
    const byId = new Map(events.map((e) => [`${e.projectId}:${e.eventId}`, e]));
    const rows = await this.db.sql.query<{ row: BatchRow | string }>(WRITE_BATCH_SQL, [input]);
    return rows
      .map(({ row }) => (typeof row === 'string' ? (JSON.parse(row) as BatchRow) : row))
      .map(({ previous_status, created, stored_event_ids, ...issue }) => {
        for (const eventId of stored_event_ids ?? []) {
          const e = byId.get(`${issue.project_id}:${eventId}`);
          if (e) this.tags.add(e.projectId, issue.id, e.tags, e.receivedAt);
        }
        return { previous_status, created, ...issue };
      })
      .map(({ previous_status, created, ...issue }) => ({
        issue: { ...(issue as IssueRow), project_slug: slugs.get(issue.project_id) ?? '' },
        created: created === true,
        // Resolved "in the next release", an issue stays resolved for events of the current release.
        reopened: previous_status === 'resolved' && issue.status === 'unresolved',
      }));
  }

  private emit(changes: IssueChange[]): void {
    if (changes.length === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(changes);
      } catch (err) {
        this.logger.error({ err }, 'issue change listener failed');
      }
    }
  }
}

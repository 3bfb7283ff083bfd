import { FailureLog, type Logger } from '@trove/service-kit';
import type { SharedState } from '@trove/shared-state';

interface Entry<V> {
  value: V;
  expiresAt: number;
  /** The subscription epoch when the value was read. */
  epoch: number;
}

/**
 * A replica's cache of database reads that every replica drops at once when the data changes: a
 * change is published on a shared-state channel before its request is answered. An entry is
 * trusted only while the subscription has been live without a break since the entry was read
 * (a Redis outage or reconnect may have lost messages), and for at most `ttlMs` as a last resort.
 */
export class ReplicatedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Bumped by every invalidation, so a read that raced one is not cached. */
  private invalidations = 0;
  private unsubscribe?: () => Promise<void>;
  private readonly publishFailures: FailureLog;

  constructor(
    private readonly state: SharedState,
    private readonly channel: string,
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {
    this.publishFailures = new FailureLog(`telling other replicas of changes (shared-state channel ${channel})`);
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.state.subscribe(this.channel, (key) => this.drop(key));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** The cached value, or `load()`'s; undefined is never cached. */
  async get(key: string | number, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const id = String(key);
    const epoch = this.state.subscriptionEpoch();
    const entry = this.entries.get(id);
    if (entry && entry.epoch === epoch && entry.expiresAt > Date.now()) return entry.value;
    const before = this.invalidations;
    const value = await load();
    if (value === undefined) this.entries.delete(id);
    else if (epoch !== undefined && before === this.invalidations && epoch === this.state.subscriptionEpoch()) {
      this.entries.set(id, { value, epoch, expiresAt: Date.now() + this.ttlMs });
    }
    return value;
  }

  /**
   * Drops the entry here and on every other replica. A failed publish (Redis down) is logged, not
   * thrown: the change is committed, and the other replicas trust no entry while they cannot hear.
   */
  async invalidate(key: string | number): Promise<void> {
    this.drop(String(key));
    await this.state.publish(this.channel, String(key)).then(
      () => this.publishFailures.recovered(this.logger),
      (err) => this.publishFailures.failed(this.logger, err, { channel: this.channel }),
    );
  }

  private drop(key: string): void {
    this.invalidations++;
    this.entries.delete(key);
  }
}

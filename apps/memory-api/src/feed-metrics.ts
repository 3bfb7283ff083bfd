import { Gauge, type Registry } from '@trove/service-kit';
import type { VectorFeed } from './memories/vector-feed.ts';

/**
 * The change feed's lag, read when Prometheus scrapes: how far this replica's in-process index may
 * be behind the writes of every replica (the chart's TroveMemoryChangeFeedLag alert reads it).
 */
export function registerFeedMetrics(registry: Registry, feed: VectorFeed): void {
  new Gauge({
    name: 'memory_change_feed_lag_seconds',
    help: "Seconds this replica's vector index may be behind the change log of vector writes (0: caught up; grows while reading or applying the log fails)",
    registers: [registry],
    collect() {
      this.set(feed.lagSeconds());
    },
  });
}

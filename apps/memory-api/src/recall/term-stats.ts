import type { MemoryStore } from '../memories/memory-store.ts';

/** What BM25 needs to know about a namespace's live memories (or all of them): N, avgdl, df. */
export interface TermStats {
  docs: number;
  /** Average distinct words per memory (the `length` of its tsvector). */
  averageLength: number;
  /** Memories holding each stemmed word (Postgres lexeme). */
  df: Map<string, number>;
}

interface Cached {
  stats: TermStats;
  builtAt: number;
  /** The store's count of index writes when built: a cheap signal that many memories changed since. */
  changesAtBuild: number;
  rebuilding?: Promise<void>;
}

/** Rebuilt when this share of the namespace's memories changed since, or when older than MAX_AGE_MS. */
const STALE_SHARE = 0.1;
const MAX_AGE_MS = 5 * 60_000;

const STATS_SQL = `SELECT word, ndoc FROM ts_stat(format(
  'SELECT search_vector FROM memories WHERE status = %L' || CASE WHEN $1::text IS NULL THEN '' ELSE format(' AND namespace = %L', $1::text) END,
  'active'))`;
const SIZE_SQL = `SELECT count(*)::float8 AS docs, coalesce(avg(length(search_vector)), 0)::float8 AS average
  FROM memories WHERE status = 'active' AND ($1::text IS NULL OR namespace = $1::text)`;

/**
 * Word statistics per namespace, read from Postgres (`ts_stat`) and kept in the process: BM25's
 * document frequencies come from the stored memories themselves, not a fixed list. Counting them
 * is a scan of the namespace (about a second at 100k memories), so they are cached and rebuilt in
 * the background when the store has changed by a tenth or every five minutes; slightly stale
 * frequencies move scores a little, never which memories match.
 */
export class TermStatistics {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly store: MemoryStore) {}

  async get(namespace: string | undefined): Promise<TermStats> {
    const key = namespace ?? '\u0000all';
    const cached = this.cache.get(key);
    if (!cached) {
      const built = await this.build(namespace);
      this.cache.set(key, built);
      return built.stats;
    }
    if (this.stale(cached) && !cached.rebuilding) {
      cached.rebuilding = this.build(namespace)
        .then((built) => void this.cache.set(key, built))
        .catch(() => {
          cached.rebuilding = undefined; // keep serving the old ones; the next recall tries again
        });
    }
    return cached.stats;
  }

  /** Forgets everything (tests, or after a bulk change such as an import or a wipe). */
  clear(): void {
    this.cache.clear();
  }

  private stale(c: Cached): boolean {
    const changed = this.store.indexChanges - c.changesAtBuild;
    return Date.now() - c.builtAt > MAX_AGE_MS || changed > STALE_SHARE * c.stats.docs + 10;
  }

  private async build(namespace: string | undefined): Promise<Cached> {
    const changesAtBuild = this.store.indexChanges;
    const sql = this.store.db.sql;
    const [size] = await sql.query<{ docs: number; average: number }>(SIZE_SQL, [namespace ?? null]);
    const rows = await sql.query<{ word: string; ndoc: number }>(STATS_SQL, [namespace ?? null]);
    const df = new Map(rows.map((r) => [r.word, Number(r.ndoc)]));
    const stats = { docs: Number(size?.docs ?? 0), averageLength: Number(size?.average ?? 0), df };
    return { stats, builtAt: Date.now(), changesAtBuild };
  }
}

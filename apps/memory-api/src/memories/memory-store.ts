import { randomUUID } from 'node:crypto';
import type { PreparedQuery } from '@trove/data';
import type { Embedder } from '@trove/embeddings';
import type { MemoryDatabase } from '../db.ts';
import { embeddingHex, type StoredEmbedding, saveEmbeddings, storedVector } from './embedding-codec.ts';
import { type MemoryFilter, matchesFilter } from './filters.ts';
import type { IndexedItem, IndexHit, MemoryIndex } from './memory-index.ts';
import { type RebuildCounts, rebuildIndexFromRows } from './rebuild-index.ts';
import { contentHash, type MemoryRow } from './record.ts';
import { REMEMBER_PLAIN_SQL, REMEMBER_SQL, rememberParams, storedRow } from './remember-sql.ts';
import { CATALOG_SELECT, catalogRow, fromSqlRow, MEMORY_SELECT } from './sql-rows.ts';
import type { MemoryPatch, NewMemory, RememberResult, StoreThresholds } from './store-inputs.ts';
import { type CatalogRow, entryOf } from './vector-catalog.ts';

/** The one-field changes `setField` makes ($6 is the value). */
const FIELD_SETS = {
  pinned: 'pinned = $6::boolean',
  importance: 'importance = $6::float8',
  helpful: 'helpful_count = helpful_count + 1',
  unhelpful: 'unhelpful_count = unhelpful_count + 1',
} as const;

import type { VectorFeed } from './vector-feed.ts';
import { DUPLICATE_MIN_WORD_OVERLAP, wordOverlap } from './word-overlap.ts';

/** What a content hook is told of a written memory. */
export type WrittenContent = Pick<MemoryRow, 'id' | 'namespace' | 'content'>;

/**
 * Memories: rows in Postgres (the truth) and their vectors in an index (derived). Every write
 * commits first and updates the index after; the change log, written in the same transaction,
 * brings every replica's index (and a shared one after a crash) up to date.
 */
export class MemoryStore {
  /** Index writes made by this replica or applied from the feed (term statistics watch it). */
  indexChanges = 0;
  /** Told when a committed write could not reach a shared index (the app logs it). */
  indexWriteFailed: (err: unknown) => void = () => {};
  /** The statements every write or recall runs, planned once (see SqlDriver.prepare). */
  private readonly hot: Record<
    'rememberPlain' | 'remember' | 'sameContent' | 'byId' | 'byIds' | 'countAccess',
    PreparedQuery
  >;
  /**
   * Called after a memory's content or namespace is written (a new memory, or an update), once
   * the row is committed. Modules that derive data from content register here (documents link
   * the `[[slug]]` mentions), so the store need not know them.
   */
  readonly contentWritten: ((row: WrittenContent, change: { created: boolean }) => Promise<unknown>)[] = [];
  /** The change feed that keeps the index current with other replicas' writes (set by the app). */
  feed: VectorFeed | undefined;

  constructor(
    readonly db: MemoryDatabase,
    readonly embedder: Embedder,
    readonly thresholds: StoreThresholds,
    readonly index: MemoryIndex,
  ) {
    this.hot = {
      rememberPlain: db.sql.prepare('memory_remember_plain', REMEMBER_PLAIN_SQL),
      remember: db.sql.prepare('memory_remember', REMEMBER_SQL),
      sameContent: db.sql.prepare(
        'memory_same_content',
        `SELECT ${MEMORY_SELECT} FROM memories WHERE content_hash = $1 AND namespace = $2 AND status = 'active' LIMIT 1`,
      ),
      byId: db.sql.prepare('memory_by_id', `SELECT ${MEMORY_SELECT} FROM memories WHERE id = $1::uuid`),
      // `= ANY(uuid[])`, not a JSON list: a prepared statement falls back to a generic plan, and
      // only the array form keeps that plan on the primary key (the JSON form scanned the table).
      byIds: db.sql.prepare('memory_by_ids', `SELECT ${MEMORY_SELECT} FROM memories WHERE id = ANY($1::uuid[])`),
      countAccess: db.sql.prepare(
        'memory_count_access',
        'UPDATE memories SET access_count = access_count + 1, last_accessed_at = now() WHERE id = ANY($1::uuid[])',
      ),
    };
  }

  /** Runs the content hooks for a committed write: every write path (remember, update, import) calls it. */
  async wroteContent(row: WrittenContent, change: { created: boolean }): Promise<void> {
    for (const listener of this.contentWritten) await listener(row, change);
  }

  async embedOne(text: string): Promise<Float32Array> {
    const [vector] = await this.embedder.embed([text]);
    return vector as Float32Array;
  }

  /**
   * Rebuilds the index from stored embeddings. Rows embedded by another model (or not at all) are
   * embedded again and saved first when `reembed` is set; otherwise they stay out of the search.
   */
  rebuildIndex(options: { reembed: boolean } = { reembed: false }): Promise<RebuildCounts> {
    return rebuildIndexFromRows(this, options);
  }

  /** Embeds these memories with the configured model and stores the vectors (one transaction). */
  async reembed(rows: { id: string; content: string }[]): Promise<Map<string, Float32Array>> {
    const vectors = await this.embedder.embed(rows.map((r) => r.content));
    await saveEmbeddings(this.db.sql, 'memories', rows, vectors as Float32Array[], this.embedder.model);
    return new Map(rows.map((r, i) => [r.id, vectors[i] as Float32Array]));
  }

  /** Reads memories with their stored vectors, as the index holds them. */
  async indexedItems(ids: string[]): Promise<IndexedItem[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.sql.query<StoredEmbedding>(
      `SELECT ${CATALOG_SELECT}, embedding, embedding_model FROM memories WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map((r) => ({ row: catalogRow(r), vector: storedVector(r, this.embedder.model) }));
  }

  /**
   * Re-reads memories named by the change feed into the index (idempotent), and removes those
   * whose rows are gone.
   */
  async applyChanges(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const items = await this.indexedItems(ids);
    const found = new Set(items.map((i) => i.row.id));
    await this.index.put(items);
    await this.index.remove(ids.filter((id) => !found.has(id)));
    this.indexChanges += ids.length;
  }

  /**
   * Whether a row read from the database is what an index said it is: it passes the filter by its
   * own (current) fields, and a vector indexed for it was embedded from its current text. Every
   * candidate any index brings is checked so, so a lagging index can never return what the
   * database says is gone, moved or rewritten; a stale entry found here is refreshed.
   * `indexedHash`: the hash as the index held it when searched (the feed may have refreshed the
   * entry since, but the score came from the vector searched then); undefined for a candidate no
   * vector scored (a full-text hit matched the row itself).
   */
  confirms(row: MemoryRow, filter: MemoryFilter, indexedHash: string | undefined): boolean {
    if (matchesFilter(entryOf(row), filter) && (indexedHash === undefined || indexedHash === row.contentHash))
      return true;
    void this.feed?.catchUp();
    return false;
  }

  /** Index hits whose rows confirm them (see `confirms`), with the rows. */
  private async confirm(
    hits: IndexHit[],
    filter: MemoryFilter,
  ): Promise<{ id: string; score: number; row: MemoryRow }[]> {
    const rows = await this.getMany(hits.map((h) => h.id));
    return hits.flatMap((h) => {
      const row = rows.get(h.id);
      return row && this.confirms(row, filter, h.contentHash) ? [{ id: h.id, score: h.score, row }] : [];
    });
  }

  /** The index's `k` nearest that pass `filter` (not yet confirmed against rows). */
  search(vector: Float32Array, k: number, filter: MemoryFilter, ef?: number): Promise<IndexHit[]> {
    return this.index.search(vector, k, filter, ef);
  }

  /** Vectors of these memories as the index holds them (absent: no vector). */
  async vectorsOf(ids: string[]): Promise<Map<string, Float32Array>> {
    const held = await this.index.vectors(ids);
    return new Map([...held].map(([id, m]) => [id, m.vector]));
  }

  /** Index writes after a committed write, counted for the term statistics' staleness. */
  putIndexed(items: IndexedItem[]): Promise<void> {
    return this.indexWrite(() => this.index.put(items), items.length);
  }

  /**
   * `putIndexed`, where the index can take it later (in process: before its next use, at the
   * latest once the current answer is out): the graph insert then runs while the client reads.
   */
  putIndexedSoon(items: IndexedItem[]): Promise<void> {
    if (!this.index.putSoon) return this.putIndexed(items);
    this.index.putSoon(items, (err) => this.indexWriteFailed(err));
    this.indexChanges += items.length;
    return Promise.resolve();
  }

  touchIndexed(rows: CatalogRow[]): Promise<void> {
    return this.indexWrite(() => this.index.touch(rows), rows.length);
  }

  removeIndexed(ids: string[]): Promise<void> {
    return this.indexWrite(() => this.index.remove(ids), ids.length);
  }

  /**
   * The row is committed when this runs, so a shared index that cannot be reached must not fail
   * the request: the change log, written with the row, brings the change to the index once it can
   * be reached (the feed keeps retrying from its position).
   */
  private async indexWrite(write: () => Promise<void>, count: number): Promise<void> {
    try {
      await write();
    } catch (err) {
      if (!this.index.shared) throw err;
      this.indexWriteFailed(err);
    }
    this.indexChanges += count;
  }

  async get(id: string): Promise<MemoryRow | null> {
    const [row] = await this.hot.byId([id]);
    return row ? fromSqlRow(row) : null;
  }

  async getMany(ids: string[]): Promise<Map<string, MemoryRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.hot.byIds([ids]);
    return new Map(rows.map((r) => [r.id as string, fromSqlRow(r)]));
  }

  /** Re-reads the filter fields of memories after a write that did not change their vectors. */
  async refreshCatalog(which: string[] | { namespace: string }): Promise<number> {
    const rows = (
      await this.db.sql.query(
        `SELECT ${CATALOG_SELECT} FROM memories WHERE ${Array.isArray(which) ? 'id = ANY($1::uuid[])' : 'namespace = $1'}`,
        [Array.isArray(which) ? which : which.namespace],
      )
    ).map(catalogRow);
    await this.touchIndexed(rows);
    return rows.length;
  }

  async remember(input: NewMemory): Promise<RememberResult> {
    const hash = contentHash(input.content);
    const vector = await this.embedOne(input.content);
    const live = { namespace: input.namespace };
    // Duplicates and contradictions are decided on what every replica has committed, read back
    // from the rows: a replica whose index lags must not store a duplicate or retire the wrong fact.
    // On the embedded database this process is the only writer, and its index has every write.
    if (this.db.kind !== 'pglite' || this.index.shared) await this.feed?.catchUp();
    // Neighbours matter only from the lowest threshold that acts on one (link, duplicate or
    // contradiction); below it, as for most new memories, their rows are not read at all.
    const hits = await this.index.search(vector, 6, live);
    const acts = Math.min(
      this.thresholds.link,
      input.detectContradiction ? this.thresholds.contradiction : this.thresholds.duplicate,
    );
    const neighbours = (hits[0]?.score ?? 0) >= acts ? await this.confirm(hits, live) : [];
    const nearest = neighbours[0];
    // A correction is usually close to what it corrects; with detect_contradiction the caller says
    // so, and the nearest is retired rather than taken for a duplicate.
    if (!input.detectContradiction && nearest && nearest.score >= this.thresholds.duplicate) {
      if (wordOverlap(nearest.row.content, input.content) >= DUPLICATE_MIN_WORD_OVERLAP) {
        return { row: nearest.row, created: false, duplicateSimilarity: nearest.score };
      }
    }
    const retire =
      input.detectContradiction && nearest && nearest.score >= this.thresholds.contradiction ? nearest : undefined;
    const links = neighbours.filter((n) => n.score >= this.thresholds.link && n.id !== retire?.id);

    const write = {
      id: randomUUID(),
      input,
      hash,
      embedding: embeddingHex(vector),
      model: this.embedder.model,
      now: new Date(),
      links: links.map((n) => ({ id: n.id, weight: n.score })),
      retired: retire,
    };
    const { plain, params } = rememberParams(write);
    const [created] = await (plain ? this.hot.rememberPlain : this.hot.remember)(params);
    if (!created) {
      const [same] = await this.hot.sameContent([hash, input.namespace]);
      // Deprecated between the two statements (a concurrent forget): store it after all.
      if (!same) return this.remember(input);
      return { row: fromSqlRow(same), created: false, duplicateSimilarity: 1 };
    }
    const row = storedRow(write, created);
    await this.putIndexedSoon([{ row, vector }]);
    if (retire) await this.refreshCatalog([retire.id]);
    await this.wroteContent(row, { created: true });
    return { row, created: true, ...(retire ? { superseded: { id: retire.id, similarity: retire.score } } : {}) };
  }

  /** Replaces the given fields. New content is embedded again; a namespace move keeps the vector. */
  async update(id: string, patch: MemoryPatch, actor = 'api'): Promise<MemoryRow | null> {
    const before = await this.get(id);
    if (!before) return null;
    const contentChanged = patch.content !== undefined && patch.content !== before.content;
    const vector = contentChanged ? await this.embedOne(patch.content as string) : null;
    const params: unknown[] = [];
    const sets: string[] = [];
    const set = (column: string, value: unknown, expr = '$') => {
      params.push(value);
      sets.push(`${column} = ${expr.replace('$', `$${params.length + 5}`)}`);
    };
    const hash = contentChanged ? contentHash(patch.content as string) : undefined;
    if (patch.content !== undefined) set('content', patch.content);
    if (contentChanged) {
      set('content_hash', hash);
      set('embedding', embeddingHex(vector as Float32Array), "decode($, 'hex')");
      set('embedding_model', this.embedder.model);
    }
    if (patch.importance !== undefined) set('importance', patch.importance, '$::float8');
    if (patch.memoryType !== undefined) set('memory_type', patch.memoryType);
    if (patch.metadata !== undefined) set('metadata', JSON.stringify(patch.metadata), '$::jsonb');
    if (patch.namespace !== undefined) set('namespace', patch.namespace);
    if (patch.pinned !== undefined) set('pinned', patch.pinned, '$::boolean');
    if (patch.tags !== undefined) set('tags', patch.tags, '$::text[]');
    const fields = Object.keys(patch).filter((k) => patch[k as keyof MemoryPatch] !== undefined);
    const evidence = {
      fields,
      ...(contentChanged ? { previous_content_hash: before.contentHash, content_hash: hash } : {}),
      ...(patch.namespace !== undefined && patch.namespace !== before.namespace
        ? { from_namespace: before.namespace, to_namespace: patch.namespace }
        : {}),
    };
    const row = (await this.writeRow(id, sets, params, { kind: 'updated', evidence }, actor)) as MemoryRow;
    if (vector) await this.putIndexed([{ row, vector }]);
    else await this.touchIndexed([row]);
    if (contentChanged || (patch.namespace !== undefined && patch.namespace !== before.namespace))
      await this.wroteContent(row, { created: false });
    return row;
  }

  /** Soft delete. Returns null when the id does not exist. */
  async forget(id: string, actor = 'api'): Promise<MemoryRow | null> {
    const before = await this.get(id);
    if (!before) return null;
    if (before.status === 'deprecated') return before;
    const deprecate = ["status = 'deprecated'", 'deprecated_at = $2::timestamptz'];
    const event = { kind: 'deprecated', evidence: { reason: 'forget' } };
    const row = (await this.writeRow(id, deprecate, [], event, actor)) as MemoryRow;
    await this.touchIndexed([row]);
    return row;
  }

  /** A change of one simple field, recorded on the timeline. */
  setField(
    id: string,
    field: keyof typeof FIELD_SETS,
    value: boolean | number | undefined,
    event: { kind: string; evidence: Record<string, unknown> },
    actor = 'api',
  ): Promise<MemoryRow | null> {
    return this.writeRow(id, [FIELD_SETS[field]], value === undefined ? [] : [value], event, actor);
  }

  /**
   * One memory's UPDATE (`sets`, whose parameters start at $6) and its timeline event, in one
   * statement at one timestamp ($2); null when the id does not exist.
   */
  private async writeRow(
    id: string,
    sets: string[],
    params: unknown[],
    event: { kind: string; evidence: Record<string, unknown> },
    actor: string,
  ): Promise<MemoryRow | null> {
    const [row] = await this.db.sql.query(
      `WITH updated AS (UPDATE memories SET ${[...sets, 'updated_at = $2::timestamptz'].join(', ')}
          WHERE id = $1::uuid RETURNING ${MEMORY_SELECT}),
        event AS (INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
          SELECT id::uuid, $3, $4, $5::jsonb, $2::timestamptz FROM updated)
       SELECT * FROM updated`,
      [id, new Date(), event.kind, actor, JSON.stringify(event.evidence), ...params],
    );
    return row ? fromSqlRow(row) : null;
  }

  /** Counts an access for memories actually returned to a caller (not for every candidate). */
  async countAccess(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.hot.countAccess([ids]);
  }
}

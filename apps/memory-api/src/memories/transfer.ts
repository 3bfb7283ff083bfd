import { createHash } from 'node:crypto';
import { embeddingHex } from './embedding-codec.ts';
import type { ImportRecord } from './import-records.ts';
import type { MemoryStore } from './memory-store.ts';
import { toMemoryJson } from './record.ts';
import { fromSqlRow, MEMORY_SELECT } from './sql-rows.ts';

// Each batch commits on its own: a crash loses at most the batch in flight, never an acknowledged one.
const IMPORT_BATCH = 1000;
const EXPORT_PAGE = 1000;

const FIELDS: [column: string, type: string, of: (r: ImportRecord & { id: string }) => unknown][] = [
  ['id', 'uuid', (r) => r.id],
  ['content', 'text', (r) => r.content],
  ['tags', 'jsonb', (r) => r.tags],
  ['namespace', 'text', (r) => r.namespace],
  ['memory_type', 'text', (r) => r.memoryType],
  ['metadata', 'jsonb', (r) => r.metadata],
  ['importance', 'float8', (r) => r.importance],
  ['pinned', 'boolean', (r) => r.pinned],
  ['status', 'text', (r) => r.status],
  ['source', 'text', (r) => r.source],
  ['source_type', 'text', (r) => r.sourceType],
  ['author_type', 'text', (r) => r.authorType],
  ['content_hash', 'text', (r) => r.contentHash],
  ['valid_from', 'timestamptz', (r) => r.validFrom],
  ['valid_until', 'timestamptz', (r) => r.validUntil],
  ['access_count', 'int', (r) => r.accessCount],
  ['last_accessed_at', 'timestamptz', (r) => r.lastAccessedAt],
  ['helpful_count', 'int', (r) => r.helpfulCount],
  ['unhelpful_count', 'int', (r) => r.unhelpfulCount],
  ['created_at', 'timestamptz', (r) => r.createdAt],
  ['updated_at', 'timestamptz', (r) => r.updatedAt],
  ['deprecated_at', 'timestamptz', (r) => r.deprecatedAt],
];
// The column list is written once; tags become an array and the embedding is decoded from hex.
const PLAIN = FIELDS.map(([c]) => c).filter((c) => c !== 'tags');
const IMPORT_SQL = `WITH ins AS (
  INSERT INTO memories (${PLAIN.join(', ')}, tags, embedding, embedding_model)
  SELECT ${PLAIN.map((c) => `x.${c}`).join(', ')}, ARRAY(SELECT jsonb_array_elements_text(x.tags)),
    decode(x.embedding, 'hex'), $2
  FROM jsonb_to_recordset($1::jsonb) AS x(${FIELDS.map(([c, t]) => `${c} ${t}`).join(', ')}, embedding text)
  ON CONFLICT (id) DO NOTHING
  RETURNING id, content_hash
)
INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
SELECT id, 'imported', 'import', jsonb_build_object('content_hash', content_hash), now() FROM ins
RETURNING memory_id::text AS id`;

/**
 * What is already stored of a batch: its ids, and memories with its content hashes. Two lookups,
 * each on its index (joined by OR, the planner scanned the whole table).
 */
const PRESENT_SQL = `SELECT id::text AS id, namespace, content_hash AS hash FROM memories WHERE id = ANY($1::uuid[])
UNION ALL
SELECT id::text, namespace, content_hash FROM memories WHERE content_hash = ANY($2::text[])`;

/**
 * The id of a line matched by content: derived from its namespace and content hash, so that two
 * imports of the same line racing each other still write it once (the primary key decides).
 */
function contentId(namespace: string, hash: string): string {
  const h = createHash('sha256').update(`${namespace}\0${hash}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface ImportResult {
  imported: number;
  /** Lines not written: `already_present` of them were in the namespace (by id or by content). */
  skipped: number;
  already_present: number;
  /** Lines written under a new id: they came from another namespace, so the import copied them. */
  copied_with_new_ids: number;
  total: number;
}

/**
 * Decides, per line, the id it is written under, or that it is already present: a line keeps its
 * id in its own namespace (present when that id is); a line without an id, or from another
 * namespace (a copy), is matched by content hash within the target namespace, as /remember's
 * exact-duplicate check does, and otherwise gets a new id. Repeats within the file count as present.
 */
async function plan(store: MemoryStore, batch: ImportRecord[], seen: Set<string>) {
  const keeps = (r: ImportRecord) => r.id !== undefined && (r.sourceNamespace ?? r.namespace) === r.namespace;
  const present = await store.db.sql.query<{ id: string; namespace: string; hash: string }>(PRESENT_SQL, [
    batch.filter(keeps).map((r) => r.id),
    batch.map((r) => r.contentHash),
  ]);
  const idIn = new Map(present.map((p) => [p.id, p.namespace]));
  const hashes = new Set(present.map((p) => `${p.namespace}\0${p.hash}`));
  const rows: (ImportRecord & { id: string })[] = [];
  let copied = 0;
  for (const r of batch) {
    // An id taken in another namespace is another memory: the line is then matched by content too.
    const own = keeps(r) && (!idIn.has(r.id as string) || idIn.get(r.id as string) === r.namespace);
    const key = own ? (r.id as string) : `${r.namespace}\0${r.contentHash}`;
    if (seen.has(key) || (own ? idIn.has(key) : hashes.has(key))) continue;
    seen.add(key);
    if (!own && r.id !== undefined) copied++;
    rows.push({ ...r, id: own ? (r.id as string) : contentId(r.namespace, r.contentHash) });
  }
  return { rows, copied };
}

/**
 * Imports parsed lines in committed batches, each one statement (rows and their `imported`
 * events). A batch's rows are written on the database's thread while the previous batch's vectors
 * go into the index here (the index's insert is most of an import's cost at 100k memories); the
 * store's content hooks then run for each new row, as they do after /remember.
 */
export async function importMemories(store: MemoryStore, records: ImportRecord[]): Promise<ImportResult> {
  let imported = 0;
  let copied = 0;
  const seen = new Set<string>();
  let previous: Promise<() => Promise<void>> | undefined;
  const finish = async () => {
    const pending = previous;
    previous = undefined;
    if (pending) await (await pending)();
  };
  const planBatch = (start: number) => plan(store, records.slice(start, start + IMPORT_BATCH), seen);
  try {
    let next = planBatch(0);
    for (let start = 0; start < records.length; start += IMPORT_BATCH) {
      const planned = await next;
      const batch = planned.rows;
      copied += planned.copied;
      const vectors = batch.length > 0 ? await store.embedder.embed(batch.map((r) => r.content)) : [];
      // The next batch's lookup goes to the database before this batch's write, so it does not
      // wait for it (lines repeated within the file are caught by `seen`, not by the database).
      if (start + IMPORT_BATCH < records.length) next = planBatch(start + IMPORT_BATCH);
      next.catch(() => {}); // awaited at the next turn
      const written = (batch.length > 0 ? writeBatch(store, batch, vectors) : Promise.resolve(new Set<string>())).then(
        (inserted) => async () => {
          imported += inserted.size;
          const fresh = batch.flatMap((r, i) =>
            inserted.has(r.id) ? [{ row: r, vector: vectors[i] as Float32Array }] : [],
          );
          await store.putIndexed(fresh);
          for (const { row } of fresh) await store.wroteContent(row, { created: true });
        },
      );
      written.catch(() => {}); // awaited below, after the previous batch is indexed
      await finish();
      previous = written;
    }
  } finally {
    // A committed batch enters the index even when a later one fails.
    await finish();
  }
  const skipped = records.length - imported;
  return { imported, skipped, already_present: skipped, copied_with_new_ids: copied, total: records.length };
}

async function writeBatch(store: MemoryStore, batch: (ImportRecord & { id: string })[], vectors: Float32Array[]) {
  const lines = batch.map((r, i) => {
    const line: Record<string, unknown> = { embedding: embeddingHex(vectors[i] as Float32Array) };
    for (const [column, , of] of FIELDS) line[column] = of(r);
    return line;
  });
  const rows = await store.db.sql.query<{ id: string }>(IMPORT_SQL, [JSON.stringify(lines), store.embedder.model]);
  return new Set(rows.map((r) => r.id));
}

/**
 * Every memory of a namespace (or all), deprecated ones too, ordered by id and read a page at a
 * time (keyset, so memory stays constant however many there are), as JSONL or as one JSON array.
 * `after` resumes after the last id a client received.
 */
export async function* exportMemories(
  store: MemoryStore,
  options: { namespace: string | undefined; after: string | undefined; format: 'json' | 'jsonl' },
): AsyncGenerator<string> {
  let cursor = options.after;
  let first = true;
  if (options.format === 'json') yield '[';
  for (;;) {
    const page = (
      await store.db.sql.query(
        `SELECT ${MEMORY_SELECT} FROM memories WHERE ($1::text IS NULL OR namespace = $1)
            AND ($2::uuid IS NULL OR id > $2::uuid) ORDER BY id LIMIT $3`,
        [options.namespace ?? null, cursor ?? null, EXPORT_PAGE],
      )
    ).map(fromSqlRow);
    if (page.length > 0) {
      const lines = page.map((row) => JSON.stringify(toMemoryJson(row)));
      yield options.format === 'json' ? `${first ? '' : ','}${lines.join(',')}` : `${lines.join('\n')}\n`;
      first = false;
    }
    cursor = page.at(-1)?.id;
    if (page.length < EXPORT_PAGE) break;
  }
  if (options.format === 'json') yield ']';
}

import type { SqlSession } from '@trove/data';
import type { MemoryRow } from './record.ts';
import type { IndexedRow } from './vector-catalog.ts';

/**
 * The hot paths (recall hydration, access counting, import) use plain SQL: one statement each, no
 * query planning in the client. These columns and this mapping give the MemoryRow type (the Prisma model without its embedding).
 */
export const MEMORY_SELECT = `id::text AS id, content, tags, namespace, memory_type, metadata, importance, pinned, status,
  source, source_type, author_type, content_hash, valid_from, valid_until, embedding_model, access_count,
  last_accessed_at, helpful_count, unhelpful_count, created_at, updated_at, deprecated_at`;

/** The columns the index keeps of a row (its filter fields and, to know its text, the content hash). */
export const CATALOG_SELECT = `id::text AS id, namespace, status, created_at, deprecated_at, valid_until, tags, metadata,
  content_hash, memory_type, updated_at`;

/** How many rows `from` (a table, joins and WHERE) holds. */
export const countRows = async (sql: SqlSession, from: string, params: unknown[] = []): Promise<number> =>
  (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}`, params))[0]?.n ?? 0;

/** Appends a parameter and returns its placeholder ($n). */
export function addParam(params: unknown[], value: unknown): string {
  params.push(value);
  return `$${params.length}`;
}

/** `WHERE id IN (...)` for a list of ids passed as one JSON parameter (works the same on both drivers). */
export const idsParam = (placeholder: string) => `(SELECT (jsonb_array_elements_text(${placeholder}::jsonb))::uuid)`;

/** A timestamp column from raw SQL (a Date from both drivers; text tolerated), or null. */
export const sqlDate = (v: unknown): Date | null =>
  v === null || v === undefined ? null : v instanceof Date ? v : new Date(v as string);

/** A jsonb column from raw SQL: parsed by the driver, or text where it was not. */
export const sqlJson = (v: unknown): MemoryRow['metadata'] =>
  (typeof v === 'string' ? JSON.parse(v) : v) as MemoryRow['metadata'];

/** A non-null timestamp column from raw SQL as RFC 3339 text. */
export const sqlIso = (v: unknown): string => (sqlDate(v) as Date).toISOString();

/** A row read with CATALOG_SELECT (or more). */
export const catalogRow = (r: Record<string, unknown>) =>
  ({
    id: r.id as string,
    namespace: r.namespace as string,
    status: r.status as string,
    createdAt: sqlDate(r.created_at) as Date,
    deprecatedAt: sqlDate(r.deprecated_at),
    validUntil: sqlDate(r.valid_until),
    tags: (r.tags as string[] | null) ?? [],
    metadata: sqlJson(r.metadata),
    contentHash: r.content_hash as string,
    memoryType: r.memory_type as string,
    updatedAt: sqlDate(r.updated_at) as Date,
  }) satisfies IndexedRow;

/**
 * A row read with MEMORY_SELECT: the catalog's fields and the rest. Object.assign, not a spread:
 * in V8 `{ ...a, x, y }` with a dozen added fields costs about 30 us (it falls to a slow path),
 * assigning them 0.5 us, and recall maps some 50 rows a query. The same holds where a JSON answer
 * gets a field added (a result's score).
 */
export function fromSqlRow(r: Record<string, unknown>): MemoryRow {
  return Object.assign(catalogRow(r), {
    content: r.content as string,
    importance: Number(r.importance),
    pinned: r.pinned as boolean,
    source: r.source as string | null,
    sourceType: r.source_type as string,
    authorType: r.author_type as string | null,
    validFrom: sqlDate(r.valid_from),
    embeddingModel: r.embedding_model as string | null,
    accessCount: Number(r.access_count),
    lastAccessedAt: sqlDate(r.last_accessed_at),
    helpfulCount: Number(r.helpful_count),
    unhelpfulCount: Number(r.unhelpful_count),
  });
}

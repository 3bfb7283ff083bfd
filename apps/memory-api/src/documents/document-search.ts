import type { MemoryStore } from '../memories/memory-store.ts';
import { orTsQuery } from '../recall/arms.ts';
import { documentIndex, type IndexedDocument } from './document-index.ts';
import { DOC_SELECT, type DocumentRow } from './document-store.ts';

export const DOC_SEARCH_MODES = ['fts', 'semantic', 'hybrid'] as const;
export type DocSearchMode = (typeof DOC_SEARCH_MODES)[number];

export interface DocumentFilter {
  namespace?: string | undefined;
  /** Every listed tag must be on the document. */
  tags?: string[] | undefined;
  after?: Date | undefined;
  before?: Date | undefined;
  /** Time travel: documents that existed then (documents have no deprecation). */
  at?: Date | undefined;
}

export interface DocumentHit {
  row: DocumentRow;
  score: number;
}

// The same fusion as memory recall: reciprocal ranks (k = 60), the vector arm above full text,
// divided by the most a document could get, so scores are 0..1 and compare with memories' scores.
const RRF_K = 60;
const WEIGHTS = { vector: 1, fts: 0.9 };

function accepts(filter: DocumentFilter) {
  return (doc: IndexedDocument) =>
    (filter.namespace === undefined || doc.namespace === filter.namespace) &&
    (!filter.tags || filter.tags.every((t) => doc.tags.includes(t))) &&
    (!filter.after || doc.createdAt >= filter.after.getTime()) &&
    (!filter.before || doc.createdAt <= filter.before.getTime()) &&
    (!filter.at || doc.createdAt <= filter.at.getTime());
}

function filterSql(filter: DocumentFilter, params: unknown[]): string {
  const add = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const parts = ['true'];
  if (filter.namespace !== undefined) parts.push(`d.namespace = ${add(filter.namespace)}`);
  if (filter.tags?.length)
    parts.push(`d.tags @> ARRAY(SELECT jsonb_array_elements_text(${add(JSON.stringify(filter.tags))}::jsonb))`);
  if (filter.after) parts.push(`d.created_at >= ${add(filter.after.toISOString())}::timestamptz`);
  if (filter.before) parts.push(`d.created_at <= ${add(filter.before.toISOString())}::timestamptz`);
  if (filter.at) parts.push(`d.created_at <= ${add(filter.at.toISOString())}::timestamptz`);
  return parts.join(' AND ');
}

/** Full text (title above content above tags, by the trigger's weights): any query word may match. */
async function ftsHits(store: MemoryStore, query: string, n: number, filter: DocumentFilter) {
  const tsquery = orTsQuery(query);
  if (!tsquery) return [];
  const params: unknown[] = [tsquery];
  const where = filterSql(filter, params);
  params.push(n);
  const rows = await store.db.sql.query<{ id: string; rank: number }>(
    `SELECT d.id::text AS id, ts_rank(d.search_vector, to_tsquery('english', $1), 1)::float8 AS rank
       FROM documents d WHERE d.search_vector @@ to_tsquery('english', $1) AND ${where}
      ORDER BY rank DESC, d.slug LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => ({ id: r.id, signal: Number(r.rank) }));
}

export interface DocSearchInput {
  query: string;
  mode: DocSearchMode;
  limit: number;
  filter: DocumentFilter;
  /** In hybrid, a vector hit below this cosine similarity does not count as found by meaning. */
  vectorFloor: number;
}

/**
 * Scores per mode: `semantic` is the cosine similarity; `fts` is the text rank divided by the best
 * one (the top match is 1.0); `hybrid` fuses both rankings like memory recall's fusion.
 */
export async function searchDocuments(store: MemoryStore, input: DocSearchInput): Promise<DocumentHit[]> {
  const n = Math.max(30, input.limit * 3);
  let vector: { id: string; signal: number }[] = [];
  if (input.mode !== 'fts') {
    const index = await documentIndex(store);
    const q = await store.embedOne(input.query);
    vector = index
      .search(q, n, accepts(input.filter))
      .filter((h) => h.score > 0)
      .map((h) => ({ id: h.id, signal: h.score }));
  }
  const text = input.mode === 'semantic' ? [] : await ftsHits(store, input.query, n, input.filter);

  let scored: { id: string; score: number }[];
  if (input.mode === 'semantic') scored = vector.map((h) => ({ id: h.id, score: h.signal }));
  else if (input.mode === 'fts') {
    const top = text[0]?.signal ?? 0;
    scored = text.map((h) => ({ id: h.id, score: top > 0 ? h.signal / top : 0 }));
  } else {
    const fused = new Map<string, number>();
    const add = (hits: { id: string }[], weight: number) => {
      for (const [i, h] of hits.entries()) fused.set(h.id, (fused.get(h.id) ?? 0) + weight / (RRF_K + i + 1));
    };
    add(
      vector.filter((h) => h.signal >= input.vectorFloor),
      WEIGHTS.vector,
    );
    add(text, WEIGHTS.fts);
    const best = (WEIGHTS.vector + WEIGHTS.fts) / (RRF_K + 1);
    scored = [...fused].map(([id, s]) => ({ id, score: s / best }));
  }
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const top = scored.slice(0, input.limit);
  if (top.length === 0) return [];
  const rows = await store.db.sql.query<DocumentRow>(
    `SELECT ${DOC_SELECT} FROM documents d WHERE d.id IN (SELECT (jsonb_array_elements_text($1::jsonb))::uuid)`,
    [JSON.stringify(top.map((s) => s.id))],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return top.flatMap((s) => {
    const row = byId.get(s.id);
    return row ? [{ row, score: Math.round(s.score * 1e6) / 1e6 }] : [];
  });
}

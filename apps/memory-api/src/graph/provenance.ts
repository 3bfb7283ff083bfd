import { notFound } from '../domain-error.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { contentHash } from '../memories/record.ts';
import { sqlIso } from '../memories/sql-rows.ts';
import { type TrustTier, trustTier } from './trust.ts';

export const TIMELINE_DEFAULT_LIMIT = 1000;
export const TIMELINE_MAX_LIMIT = 10_000;

export interface TimelineEvent {
  id: string;
  kind: string;
  actor: string;
  evidence: Record<string, unknown>;
  created_at: string;
}

/** `/timeline`: a memory's events (NOT_FOUND for an unknown memory, deprecated ones included). */
export async function memoryTimeline(store: MemoryStore, id: string, limit: number) {
  if (!(await store.get(id))) throw notFound(`no memory with id ${id}`);
  return { id, ...(await readTimeline(store, id, limit)) };
}

/** A memory's events in write order (the event id ascends with every write, even within a millisecond). */
export async function readTimeline(
  store: MemoryStore,
  id: string,
  limit: number,
): Promise<{ events: TimelineEvent[]; truncated: boolean }> {
  const rows = await store.db.sql.query<
    Omit<TimelineEvent, 'evidence' | 'created_at'> & { evidence: unknown; created_at: Date | string }
  >(
    `SELECT id::text AS id, kind, actor, evidence, created_at FROM memory_events
      WHERE memory_id = $1::uuid ORDER BY memory_events.id LIMIT $2::int`,
    [id, limit + 1],
  );
  const events = rows.slice(0, limit).map((r) => ({
    id: r.id,
    kind: r.kind,
    actor: r.actor,
    evidence: (typeof r.evidence === 'string' ? JSON.parse(r.evidence) : (r.evidence ?? {})) as Record<string, unknown>,
    created_at: sqlIso(r.created_at),
  }));
  return { events, truncated: rows.length > limit };
}

/**
 * The content hashes the event chain recorded: on the first write (`created` or `imported`) and on
 * the latest write of content (those two, or `updated` with new content). Read in SQL, so a long
 * timeline cut by the limit still gives the right answer.
 */
async function recordedHashes(store: MemoryStore, id: string): Promise<{ first: string | null; last: string | null }> {
  const [row] = await store.db.sql.query<{ first: string | null; last: string | null }>(
    `SELECT (SELECT evidence->>'content_hash' FROM memory_events
              WHERE memory_id = $1::uuid AND kind IN ('created', 'imported') AND evidence->>'content_hash' IS NOT NULL
              ORDER BY id LIMIT 1) AS first,
            (SELECT evidence->>'content_hash' FROM memory_events
              WHERE memory_id = $1::uuid AND kind IN ('created', 'imported', 'updated')
                AND evidence->>'content_hash' IS NOT NULL
              ORDER BY id DESC LIMIT 1) AS last`,
    [id],
  );
  return { first: row?.first ?? null, last: row?.last ?? null };
}

export interface ProvenanceReport {
  id: string;
  namespace: string;
  status: string;
  author_type: string | null;
  source: string | null;
  source_type: string;
  trust_tier: TrustTier;
  trust_reasons: string[];
  feedback: { helpful: number; unhelpful: number };
  /** The hash stored with the row by the last write through the API. */
  content_hash: string;
  /** The hash recorded on the `created` (or `imported`) event: the content as first written. */
  created_hash: string | null;
  /** The hash the last content-writing event recorded (created, imported or updated with new content). */
  last_recorded_hash: string | null;
  /** SHA-256 of the content as it is now. */
  current_hash: string;
  /** current_hash equals content_hash. */
  hash_matches: boolean;
  /** content_hash equals last_recorded_hash (or no event recorded one). */
  chain_matches: boolean;
  /** Either check failed: the content (or its stored hash) changed without going through the API. */
  tampered: boolean;
  created_at: string;
  updated_at: string;
  events: TimelineEvent[];
  events_truncated: boolean;
}

/**
 * The provenance of one memory. Tamper evidence takes two checks: the live hash of the content
 * against the stored hash (catches a changed content), and the stored hash against the one the
 * event chain last recorded (catches a changed content whose hash column was rewritten to match).
 */
export async function provenanceReport(store: MemoryStore, id: string, limit: number): Promise<ProvenanceReport> {
  const row = await store.get(id);
  if (!row) throw notFound(`no memory with id ${id}`);
  const { events, truncated } = await readTimeline(store, id, limit);
  const recorded = await recordedHashes(store, id);
  const current = contentHash(row.content);
  const lastRecorded = recorded.last;
  const hashMatches = current === row.contentHash;
  const chainMatches = lastRecorded === null || lastRecorded === row.contentHash;
  const tampered = !hashMatches || !chainMatches;
  const trust = trustTier({
    sourceType: row.sourceType,
    authorType: row.authorType,
    helpful: row.helpfulCount,
    unhelpful: row.unhelpfulCount,
    tampered,
  });
  return {
    id: row.id,
    namespace: row.namespace,
    status: row.status,
    author_type: row.authorType,
    source: row.source,
    source_type: row.sourceType,
    trust_tier: trust.tier,
    trust_reasons: trust.reasons,
    feedback: { helpful: row.helpfulCount, unhelpful: row.unhelpfulCount },
    content_hash: row.contentHash,
    created_hash: recorded.first,
    last_recorded_hash: lastRecorded,
    current_hash: current,
    hash_matches: hashMatches,
    chain_matches: chainMatches,
    tampered,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    events,
    events_truncated: truncated,
  };
}

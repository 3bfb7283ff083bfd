import { createHash } from 'node:crypto';
import type { MemoryStore } from '../memories/memory-store.ts';
import { contradictionReason, duplicateClusters, type SimilarPair, similarPairs } from './dream-analysis.ts';
import { extractEntities } from './extract.ts';

export interface DreamOptions {
  namespace: string | undefined;
  dryRun: boolean;
  /** Cosine similarity at or above which two memories that do not conflict are near-duplicates. */
  duplicateThreshold: number;
  /** Cosine similarity at or above which two memories that differ in numbers or negation may contradict. */
  contradictionThreshold: number;
  /** An entity named in at least this many memories is a recurring entity. */
  minMentions: number;
}

export type InsightKind = 'duplicate_cluster' | 'contradiction' | 'recurring_entity';

export interface PlannedInsight {
  kind: InsightKind;
  namespace: string;
  /** Stable identity of the insight: the same evidence (or the same entity) gives the same key. */
  key: string;
  content: string;
  evidence_ids: string[];
  details: Record<string, unknown>;
}

export type InsightStatus = 'created' | 'updated' | 'unchanged' | 'dismissed' | 'would_create' | 'would_update';

export interface DreamResult {
  dry_run: boolean;
  namespaces: string[];
  analysed: number;
  insights: (PlannedInsight & { status: InsightStatus; id: string | null })[];
  counts: Record<InsightStatus, number>;
}

/** Memories read per namespace, newest first; older ones are left out of a run (reported as `analysed`). */
export const DREAM_MAX_MEMORIES = 5000;
/** Insights of each kind per namespace and run, strongest first. */
const MAX_PER_KIND = 50;
/** Evidence ids kept on one insight (a very common entity would otherwise list thousands). */
const MAX_EVIDENCE = 50;
export const DREAM_SOURCE = 'dream';

const snippet = (text: string, max = 120) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const keyOf = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);

interface Row {
  id: string;
  content: string;
}

/** What the corpus of one namespace suggests, without writing anything. */
async function plan(store: MemoryStore, namespace: string, options: DreamOptions): Promise<[PlannedInsight[], number]> {
  const rows = await store.db.sql.query<Row>(
    `SELECT id::text, content FROM memories WHERE namespace = $1 AND status = 'active' AND source_type <> $2
      ORDER BY created_at DESC, id LIMIT $3`,
    [namespace, DREAM_SOURCE, DREAM_MAX_MEMORIES],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const floor = Math.min(options.duplicateThreshold, options.contradictionThreshold);
  const pairs = await similarPairs(store, rows, namespace, floor);
  const insights: PlannedInsight[] = [];

  // Rows come newest first: a pair is told older first ("was 12, now 20"), whatever its ids.
  const age = new Map(rows.map((r, i) => [r.id, i]));
  const olderFirst = (p: SimilarPair) =>
    ((age.get(p.a) ?? 0) > (age.get(p.b) ?? 0) ? [p.a, p.b] : [p.b, p.a]) as [string, string];
  const contradictions = pairs
    .map((p) => {
      const [older, newer] = olderFirst(p);
      return {
        ...p,
        older,
        newer,
        reason: contradictionReason(byId.get(older)?.content ?? '', byId.get(newer)?.content ?? ''),
      };
    })
    .filter((p) => p.reason !== null && p.similarity >= options.contradictionThreshold)
    .slice(0, MAX_PER_KIND);
  for (const p of contradictions) {
    const ids = [p.a, p.b].sort();
    insights.push({
      kind: 'contradiction',
      namespace,
      key: keyOf('contradiction', namespace, ...ids),
      content: `Possible contradiction (${p.reason}): "${snippet(byId.get(p.older)?.content ?? '')}" (older) versus "${snippet(byId.get(p.newer)?.content ?? '')}" (newer). Check which one is current.`,
      evidence_ids: ids,
      details: { similarity: round(p.similarity), reason: p.reason, older: p.older, newer: p.newer },
    });
  }

  const agreeing = pairs.filter(
    (p) =>
      p.similarity >= options.duplicateThreshold &&
      contradictionReason(byId.get(p.a)?.content ?? '', byId.get(p.b)?.content ?? '') === null,
  );
  for (const cluster of duplicateClusters(agreeing).slice(0, MAX_PER_KIND)) {
    const ids = [...cluster.ids].sort();
    const oldest = rows.findLast((r) => cluster.ids.includes(r.id)) as Row;
    insights.push({
      kind: 'duplicate_cluster',
      namespace,
      key: keyOf('duplicate_cluster', namespace, ...ids),
      content: `${ids.length} memories say nearly the same thing: "${snippet(oldest.content)}". Consider merging them.`,
      evidence_ids: ids,
      details: { min_similarity: round(cluster.minSimilarity) },
    });
  }

  const mentions = new Map<string, { label: string; ids: string[] }>();
  for (const row of rows) {
    for (const e of extractEntities(row.content)) {
      if (e.kind !== 'name' && e.kind !== 'email' && e.kind !== 'url') continue;
      const k = e.text.toLowerCase();
      const seen = mentions.get(k) ?? { label: e.text, ids: [] };
      if (!seen.ids.includes(row.id)) seen.ids.push(row.id);
      mentions.set(k, seen);
    }
  }
  const recurring = [...mentions.entries()]
    .filter(([, m]) => m.ids.length >= options.minMentions)
    .sort((a, b) => b[1].ids.length - a[1].ids.length || a[0].localeCompare(b[0]))
    .slice(0, MAX_PER_KIND);
  for (const [k, m] of recurring) {
    const ids = [...m.ids].sort().slice(0, MAX_EVIDENCE);
    insights.push({
      kind: 'recurring_entity',
      namespace,
      // Keyed by the entity alone: when more memories mention it, the same insight is updated.
      key: keyOf('recurring_entity', namespace, k),
      content: `"${m.label}" is a recurring subject: ${m.ids.length} memories mention it.`,
      evidence_ids: ids,
      details: { entity: m.label, mentions: m.ids.length },
    });
  }
  return [insights, rows.length];
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

interface Existing {
  id: string;
  status: string;
  evidence: string[];
  content: string;
}

async function existingInsights(store: MemoryStore, namespace: string): Promise<Map<string, Existing>> {
  const rows = await store.db.sql.query<{
    id: string;
    status: string;
    content: string;
    dream: { key?: string; evidence_ids?: string[] } | null;
  }>(
    `SELECT id::text, status, content, metadata->'dream' AS dream FROM memories
      WHERE namespace = $1 AND source_type = $2 AND metadata->'dream' IS NOT NULL ORDER BY created_at`,
    [namespace, DREAM_SOURCE],
  );
  const out = new Map<string, Existing>();
  for (const r of rows) {
    if (typeof r.dream?.key !== 'string' || out.has(r.dream.key)) continue;
    out.set(r.dream.key, { id: r.id, status: r.status, content: r.content, evidence: r.dream.evidence_ids ?? [] });
  }
  return out;
}

const metadataOf = (i: PlannedInsight) => ({
  dream: { kind: i.kind, key: i.key, evidence_ids: i.evidence_ids, ...i.details },
});

/**
 * Records where an insight came from: `derived_from` edges to each evidence memory. Their
 * `referenced_by` backlinks follow from the edges (kept by the database, see the backlink triggers).
 */
async function linkEvidence(store: MemoryStore, insightId: string, evidence: string[]): Promise<void> {
  await store.db.sql.query(
    `INSERT INTO memory_edges (id, source_id, target_id, edge_type, weight, created_at)
     SELECT gen_random_uuid(), $1::uuid, e::uuid, 'derived_from', 1, now() FROM unnest($2::text[]) e
     ON CONFLICT DO NOTHING`,
    [insightId, evidence],
  );
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

async function apply(
  store: MemoryStore,
  insight: PlannedInsight,
  existing: Existing | undefined,
  dryRun: boolean,
): Promise<{ status: InsightStatus; id: string | null }> {
  if (existing?.status === 'deprecated') return { status: 'dismissed', id: existing.id }; // someone retired it: do not bring it back
  if (existing && sameSet(existing.evidence, insight.evidence_ids) && existing.content === insight.content)
    return { status: 'unchanged', id: existing.id };
  if (dryRun) return { status: existing ? 'would_update' : 'would_create', id: existing?.id ?? null };
  if (existing) {
    await store.update(existing.id, { content: insight.content, metadata: metadataOf(insight) }, DREAM_SOURCE);
    await linkEvidence(store, existing.id, insight.evidence_ids);
    return { status: 'updated', id: existing.id };
  }
  const result = await store.remember({
    content: insight.content,
    tags: ['dream', insight.kind],
    namespace: insight.namespace,
    memoryType: 'insight',
    metadata: metadataOf(insight),
    source: DREAM_SOURCE,
    sourceType: DREAM_SOURCE,
    authorType: 'system',
    evidence: { derived_from: insight.evidence_ids, dream_key: insight.key },
  });
  // A live memory already saying the same thing was returned instead: leave that one alone.
  if (!result.created) return { status: 'unchanged', id: result.row.id };
  await linkEvidence(store, result.row.id, insight.evidence_ids);
  return { status: 'created', id: result.row.id };
}

// One dream at a time per store: two concurrent runs would both see "no insight yet" and write twice.
const running = new WeakMap<MemoryStore, Promise<unknown>>();

export function dream(store: MemoryStore, options: DreamOptions): Promise<DreamResult> {
  const previous = running.get(store) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => dreamNow(store, options));
  running.set(store, next);
  return next;
}

async function dreamNow(store: MemoryStore, options: DreamOptions): Promise<DreamResult> {
  const namespaces =
    options.namespace !== undefined
      ? [options.namespace]
      : (
          await store.db.sql.query<{ namespace: string }>(
            `SELECT DISTINCT namespace FROM memories WHERE status = 'active' AND source_type <> $1 ORDER BY namespace`,
            [DREAM_SOURCE],
          )
        ).map((r) => r.namespace);
  const result: DreamResult = {
    dry_run: options.dryRun,
    namespaces,
    analysed: 0,
    insights: [],
    counts: { created: 0, updated: 0, unchanged: 0, dismissed: 0, would_create: 0, would_update: 0 },
  };
  // Each namespace dreams alone: an insight never cites memories of another tenant.
  for (const namespace of namespaces) {
    const [planned, analysed] = await plan(store, namespace, options);
    result.analysed += analysed;
    const existing = await existingInsights(store, namespace);
    for (const insight of planned) {
      const outcome = await apply(store, insight, existing.get(insight.key), options.dryRun);
      result.counts[outcome.status]++;
      result.insights.push({ ...insight, ...outcome });
    }
  }
  return result;
}

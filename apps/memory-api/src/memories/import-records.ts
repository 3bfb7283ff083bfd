import { invalidTypeMessage, isMemoryType } from './memory-types.ts';
import { contentHash } from './record.ts';

/** One memory from an import line, validated; fields absent from the line get the create defaults. */
export interface ImportRecord {
  id: string | undefined;
  content: string;
  tags: string[];
  namespace: string;
  /** The namespace the line itself names (it may be imported into another). */
  sourceNamespace: string | null;
  memoryType: string;
  metadata: Record<string, unknown>;
  importance: number;
  pinned: boolean;
  status: 'active' | 'deprecated';
  source: string | null;
  sourceType: string;
  authorType: string | null;
  contentHash: string;
  validFrom: Date | null;
  validUntil: Date | null;
  accessCount: number;
  lastAccessedAt: Date | null;
  helpfulCount: number;
  unhelpfulCount: number;
  createdAt: Date;
  updatedAt: Date;
  deprecatedAt: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

class LineError extends Error {}

const str = (v: unknown, field: string): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new LineError(`${field} must be a string`);
  return v;
};
const time = (v: unknown, field: string): Date | null => {
  if (v === undefined || v === null) return null;
  const d = typeof v === 'string' && RFC3339.test(v) ? new Date(v) : null;
  if (!d || Number.isNaN(d.getTime())) throw new LineError(`${field} must be an RFC 3339 timestamp`);
  return d;
};
const count = (v: unknown, field: string): number => {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new LineError(`${field} must be a whole number >= 0`);
  return v;
};

/**
 * Parses JSONL (one memory per line, as `GET /export?format=jsonl` writes them). Any bad line
 * fails the whole import with its line number, so nothing is half-imported by mistake.
 */
export function parseImport(
  text: string,
  overrides: { namespace?: string | undefined; tags?: string[] | undefined },
  now: Date,
): { records: ImportRecord[] } | { error: string } {
  const records: ImportRecord[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (!line) continue;
    try {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new LineError('is not valid JSON');
      }
      records.push(toRecord(value, overrides, now));
    } catch (err) {
      if (err instanceof LineError) return { error: `line ${i + 1}: ${err.message}` };
      throw err;
    }
  }
  return { records };
}

function toRecord(
  value: unknown,
  overrides: { namespace?: string | undefined; tags?: string[] | undefined },
  now: Date,
): ImportRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new LineError('must be a JSON object');
  const v = value as Record<string, unknown>;
  const content = str(v.content, 'content')?.trim();
  if (!content) throw new LineError('content is required');
  if (v.id !== undefined && v.id !== null && !(typeof v.id === 'string' && UUID.test(v.id)))
    throw new LineError('id must be a UUID');
  const type = v.type ?? v.memory_type;
  if (type !== undefined && type !== null && !isMemoryType(type)) throw new LineError(invalidTypeMessage(type));
  if (v.tags !== undefined && (!Array.isArray(v.tags) || v.tags.some((t) => typeof t !== 'string')))
    throw new LineError('tags must be an array of strings');
  if (v.metadata !== undefined && v.metadata !== null && (typeof v.metadata !== 'object' || Array.isArray(v.metadata)))
    throw new LineError('metadata must be an object');
  const importance = v.importance ?? 0.5;
  if (typeof importance !== 'number' || importance < 0 || importance > 1)
    throw new LineError('importance must be a number from 0.0 to 1.0');
  if (v.pinned !== undefined && typeof v.pinned !== 'boolean') throw new LineError('pinned must be true or false');
  const status = v.status ?? 'active';
  if (status !== 'active' && status !== 'deprecated') throw new LineError('status must be active or deprecated');
  const feedback = (v.feedback ?? {}) as Record<string, unknown>;
  const createdAt = time(v.created_at, 'created_at') ?? now;
  const tags = [
    ...new Set(
      [...((v.tags as string[] | undefined) ?? []), ...(overrides.tags ?? [])].map((t) => t.trim()).filter(Boolean),
    ),
  ];
  return {
    id: typeof v.id === 'string' ? v.id.toLowerCase() : undefined,
    content,
    tags,
    namespace: overrides.namespace ?? str(v.namespace, 'namespace') ?? 'default',
    sourceNamespace: str(v.namespace, 'namespace'),
    memoryType: (type as string | undefined) ?? 'fact',
    metadata: (v.metadata as Record<string, unknown> | undefined) ?? {},
    importance,
    pinned: v.pinned === true,
    status,
    source: str(v.source, 'source'),
    sourceType: str(v.source_type, 'source_type') ?? 'user',
    authorType: str(v.author_type, 'author_type'),
    // The hash taken when the memory was first written travels with it: provenance, not a cache.
    contentHash: str(v.content_hash, 'content_hash') ?? contentHash(content),
    validFrom: time(v.valid_from, 'valid_from'),
    validUntil: time(v.valid_until, 'valid_until'),
    accessCount: count(v.access_count, 'access_count'),
    lastAccessedAt: time(v.last_accessed_at, 'last_accessed_at'),
    helpfulCount: count(feedback.helpful, 'feedback.helpful'),
    unhelpfulCount: count(feedback.unhelpful, 'feedback.unhelpful'),
    createdAt,
    updatedAt: time(v.updated_at, 'updated_at') ?? createdAt,
    deprecatedAt: status === 'deprecated' ? (time(v.deprecated_at, 'deprecated_at') ?? now) : null,
  };
}

import { createHash } from 'node:crypto';
import type { Memory } from '../generated/prisma/client.ts';

export type MemoryRow = Omit<Memory, 'embedding'>;

export type MemoryJson = ReturnType<typeof toMemoryJson>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function contentHash(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

/** A memory as the API shows it. Both `type` (the create field) and `memory_type` (the update field) are given. */
export function toMemoryJson(row: MemoryRow) {
  return {
    id: row.id,
    content: row.content,
    tags: row.tags ?? [],
    namespace: row.namespace,
    type: row.memoryType,
    memory_type: row.memoryType,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    importance: row.importance,
    pinned: row.pinned,
    status: row.status,
    source: row.source,
    source_type: row.sourceType,
    author_type: row.authorType,
    content_hash: row.contentHash,
    valid_from: iso(row.validFrom),
    valid_until: iso(row.validUntil),
    embedding_model: row.embeddingModel,
    access_count: row.accessCount,
    last_accessed_at: iso(row.lastAccessedAt),
    feedback: { helpful: row.helpfulCount, unhelpful: row.unhelpfulCount },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    deprecated_at: iso(row.deprecatedAt),
  };
}

import { randomUUID } from 'node:crypto';
import { badRequest } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { encodeEmbedding } from '../../memories/embedding-codec.ts';
import { type ImportRecord, parseImport } from '../../memories/import-records.ts';
import type { MemoryStore } from '../../memories/memory-store.ts';
import { MEMORY_COLUMNS, toMemoryJson } from '../../memories/record.ts';
import { exportQuery, importBody } from '../../schemas/requests.ts';
import { namespace } from '../parse.ts';

// Each batch commits on its own: a crash loses at most the batch in flight, never an acknowledged one.
const IMPORT_BATCH = 1000;
const EXPORT_PAGE = 2000;

const COLUMNS = `id uuid, content text, tags jsonb, namespace text, memory_type text, metadata jsonb, importance float8,
  pinned boolean, status text, source text, source_type text, author_type text, content_hash text, valid_from timestamptz,
  valid_until timestamptz, embedding text, access_count int, last_accessed_at timestamptz, helpful_count int,
  unhelpful_count int, created_at timestamptz, updated_at timestamptz, deprecated_at timestamptz`;

const IMPORT_SQL = `WITH ins AS (
  INSERT INTO memories (id, content, tags, namespace, memory_type, metadata, importance, pinned, status, source,
    source_type, author_type, content_hash, valid_from, valid_until, embedding, embedding_model, access_count,
    last_accessed_at, helpful_count, unhelpful_count, created_at, updated_at, deprecated_at)
  SELECT x.id, x.content, ARRAY(SELECT jsonb_array_elements_text(x.tags)), x.namespace, x.memory_type, x.metadata,
    x.importance, x.pinned, x.status, x.source, x.source_type, x.author_type, x.content_hash, x.valid_from,
    x.valid_until, decode(x.embedding, 'hex'), $2, x.access_count, x.last_accessed_at, x.helpful_count,
    x.unhelpful_count, x.created_at, x.updated_at, x.deprecated_at
  FROM jsonb_to_recordset($1::jsonb) AS x(${COLUMNS})
  ON CONFLICT (id) DO NOTHING
  RETURNING id, content_hash
)
INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
SELECT id, 'imported', 'import', jsonb_build_object('content_hash', content_hash), now() FROM ins
RETURNING memory_id::text AS id`;

function toColumns(r: ImportRecord & { id: string }) {
  return {
    id: r.id,
    content: r.content,
    tags: r.tags,
    namespace: r.namespace,
    memory_type: r.memoryType,
    metadata: r.metadata,
    importance: r.importance,
    pinned: r.pinned,
    status: r.status,
    source: r.source,
    source_type: r.sourceType,
    author_type: r.authorType,
    content_hash: r.contentHash,
    valid_from: r.validFrom,
    valid_until: r.validUntil,
    access_count: r.accessCount,
    last_accessed_at: r.lastAccessedAt,
    helpful_count: r.helpfulCount,
    unhelpful_count: r.unhelpfulCount,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    deprecated_at: r.deprecatedAt,
  };
}

/**
 * One statement per batch (rows and their `imported` events): atomic without a session, and ids
 * already present are skipped, so a retried import does not duplicate. Resolves to the new ids.
 */
async function writeBatch(
  store: MemoryStore,
  batch: (ImportRecord & { id: string })[],
  vectors: Float32Array[],
): Promise<Set<string>> {
  const rows = await store.db.sql.query<{ id: string }>(IMPORT_SQL, [
    JSON.stringify(
      batch.map((r, i) => ({
        ...toColumns(r),
        embedding: Buffer.from(encodeEmbedding(vectors[i] as Float32Array)).toString('hex'),
      })),
    ),
    store.embedder.model,
  ]);
  return new Set(rows.map((r) => r.id));
}

export const transferRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  app.post<{ Body: { content: string; namespace?: unknown; tags?: string[] } }>(
    '/import',
    {
      schema: { body: importBody },
      config: {
        access: 'write',
        description: 'imports memories from JSONL (one memory per line)',
        requestType: 'ImportRequest',
        responseType: '{imported, skipped, total}',
      },
    },
    async (request) => {
      const parsed = parseImport(
        request.body.content,
        { namespace: namespace(request.body.namespace), tags: request.body.tags },
        new Date(),
      );
      if ('error' in parsed) throw badRequest(parsed.error);
      const records = parsed.records;
      let imported = 0;
      // A batch's rows are written on the database's thread while the previous batch's vectors go
      // into the index here (the index's insert is most of an import's cost at 100k memories).
      let previous: Promise<() => Promise<void>> | undefined;
      const index = async () => {
        const pending = previous;
        previous = undefined;
        if (pending) (await pending)();
      };
      try {
        for (let start = 0; start < records.length; start += IMPORT_BATCH) {
          const batch = records.slice(start, start + IMPORT_BATCH).map((r) => ({ ...r, id: r.id ?? randomUUID() }));
          const vectors = await store.embedder.embed(batch.map((r) => r.content));
          const written = writeBatch(store, batch, vectors).then((inserted) => () => {
            imported += inserted.size;
            return store.putIndexed(
              batch.flatMap((r, i) => (inserted.has(r.id) ? [{ row: r, vector: vectors[i] as Float32Array }] : [])),
            );
          });
          written.catch(() => {}); // awaited below, after the previous batch is indexed
          await index();
          previous = written;
        }
      } finally {
        // A committed batch enters the index even when a later one fails.
        await index();
      }
      return { imported, skipped: records.length - imported, total: records.length };
    },
  );

  app.get<{ Querystring: { namespace?: string; format?: 'json' | 'jsonl' } }>(
    '/export',
    {
      schema: { querystring: exportQuery },
      config: {
        access: 'read',
        description: 'every memory (deprecated too) as a JSON array, or JSONL with format=jsonl',
        requestType: 'query namespace, format',
        responseType: 'Memory[]',
      },
    },
    async (request, reply) => {
      const ns = namespace(request.query.namespace);
      const records: ReturnType<typeof toMemoryJson>[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await store.prisma.memory.findMany({
          where: ns === undefined ? {} : { namespace: ns },
          select: MEMORY_COLUMNS,
          orderBy: { id: 'asc' },
          take: EXPORT_PAGE,
          ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
        });
        records.push(...page.map(toMemoryJson));
        cursor = page.at(-1)?.id;
        if (page.length < EXPORT_PAGE) break;
      }
      if (request.query.format === 'jsonl') {
        return reply
          .type('application/x-ndjson')
          .send(records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''));
      }
      return records;
    },
  );
};

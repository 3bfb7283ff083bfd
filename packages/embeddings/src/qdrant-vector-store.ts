import { QdrantClient } from '@qdrant/js-client-rest';
import type { VectorFilter, VectorHit, VectorPayload, VectorRecord, VectorStore } from './vector-store.ts';

export interface QdrantStoreOptions {
  url: string;
  apiKey?: string | undefined;
  /** The embedding model: one collection per model and dimension, so vectors never mix. */
  model: string;
  dimensions: number;
  /** Prepended to the collection name (one Qdrant serving several deployments). */
  prefix?: string;
}

/** Payload fields searches filter on, indexed so filtered searches stay fast at size. */
const INDEXED: [string, 'keyword' | 'float'][] = [
  ['namespace', 'keyword'],
  ['status', 'keyword'],
  ['type', 'keyword'],
  ['tags', 'keyword'],
  ['category', 'keyword'],
  ['entity', 'keyword'],
  ['createdAt', 'float'],
  ['deprecatedAt', 'float'],
  ['validUntil', 'float'],
];

type Condition = Record<string, unknown>;

/** The same semantics as `matchesVectorFilter`, as a Qdrant filter. */
export function qdrantFilter(f: VectorFilter): { must: Condition[] } {
  const must: Condition[] = [];
  const unsetOrAfter = (key: string, at: number) => ({
    should: [{ is_null: { key } }, { is_empty: { key } }, { key, range: { gt: at } }],
  });
  if (f.at !== undefined) {
    must.push(
      { key: 'createdAt', range: { lte: f.at } },
      unsetOrAfter('deprecatedAt', f.at),
      unsetOrAfter('validUntil', f.at),
    );
  } else {
    must.push({ key: 'status', match: { value: 'active' } });
  }
  if (f.namespace !== undefined) must.push({ key: 'namespace', match: { value: f.namespace } });
  for (const tag of f.tags ?? []) must.push({ key: 'tags', match: { value: tag } });
  if (f.category !== undefined) must.push({ key: 'category', match: { value: f.category } });
  if (f.entity !== undefined) must.push({ key: 'entity', match: { value: f.entity } });
  if (f.after !== undefined) must.push({ key: 'createdAt', range: { gte: f.after } });
  if (f.before !== undefined) must.push({ key: 'createdAt', range: { lte: f.before } });
  return { must };
}

/**
 * Vectors in Qdrant, shared by every replica: points keyed by memory id (so a retried or replayed
 * upsert replaces, never duplicates), cosine distance, the payload beside each point. Written for
 * Qdrant server 1.18 with the client of the same version.
 */
export class QdrantVectorStore implements VectorStore {
  readonly collection: string;
  readonly dimensions: number;
  readonly description: string;
  private readonly client: QdrantClient;
  private ready: Promise<void> | undefined;

  constructor(options: QdrantStoreOptions) {
    this.dimensions = options.dimensions;
    const model = options.model.toLowerCase().replace(/[^a-z0-9]+/g, '_');
    this.collection = `${options.prefix ?? 'trove'}_${model}_${options.dimensions}`;
    this.description = `Qdrant at ${redactUrl(options.url)} (collection ${this.collection})`;
    this.client = new QdrantClient({
      url: options.url,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      checkCompatibility: false,
    });
  }

  /** Creates the collection and its payload indexes when absent. */
  private ensure(): Promise<void> {
    this.ready ??= (async () => {
      const { exists } = await this.client.collectionExists(this.collection);
      if (!exists) {
        await this.client.createCollection(this.collection, {
          vectors: { size: this.dimensions, distance: 'Cosine' },
        });
      }
      for (const [field, schema] of INDEXED) {
        await this.client.createPayloadIndex(this.collection, { field_name: field, field_schema: schema, wait: true });
      }
    })().catch((err) => {
      this.ready = undefined;
      throw new Error(`${this.description}: preparing the collection failed: ${describeError(err)}`);
    });
    return this.ready;
  }

  async upsert(records: VectorRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.ensure();
    await this.client.upsert(this.collection, {
      wait: true,
      points: records.map((r) => ({ id: r.id, vector: Array.from(r.vector), payload: { ...r.payload } })),
    });
  }

  async delete(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.ensure();
    await this.client.delete(this.collection, { wait: true, points: ids });
  }

  async search(query: Float32Array, k: number, filter: VectorFilter): Promise<VectorHit[]> {
    await this.ensure();
    const hits = await this.client.search(this.collection, {
      vector: Array.from(query),
      limit: k,
      filter: qdrantFilter(filter),
      with_payload: ['contentHash'],
    });
    return hits.map((h) => ({
      id: String(h.id),
      score: h.score,
      contentHash: String((h.payload as { contentHash?: unknown } | null)?.contentHash ?? ''),
    }));
  }

  async payload(id: string): Promise<VectorPayload | undefined> {
    await this.ensure();
    const [point] = await this.client.retrieve(this.collection, { ids: [id], with_payload: true, with_vector: false });
    return point?.payload as VectorPayload | undefined;
  }

  async retrieve(ids: string[]): Promise<Map<string, VectorRecord>> {
    const out = new Map<string, VectorRecord>();
    if (ids.length === 0) return out;
    await this.ensure();
    const points = await this.client.retrieve(this.collection, { ids, with_payload: true, with_vector: true });
    for (const p of points) {
      out.set(String(p.id), {
        id: String(p.id),
        vector: Float32Array.from(p.vector as number[]),
        payload: p.payload as unknown as VectorPayload,
      });
    }
    return out;
  }

  async *ids(pageSize = 1000): AsyncIterable<string[]> {
    await this.ensure();
    let offset: string | number | undefined;
    for (;;) {
      const page = await this.client.scroll(this.collection, {
        limit: pageSize,
        with_payload: false,
        with_vector: false,
        ...(offset !== undefined ? { offset } : {}),
      });
      if (page.points.length > 0) yield page.points.map((p) => String(p.id));
      const next = page.next_page_offset;
      if (next === null || next === undefined || typeof next === 'object') return;
      offset = next;
    }
  }

  async ping(): Promise<void> {
    try {
      await this.client.collectionExists(this.collection);
    } catch (err) {
      throw new Error(`${this.description} unreachable: ${describeError(err)}`);
    }
  }

  async count(): Promise<number> {
    await this.ensure();
    return (await this.client.count(this.collection, { exact: true })).count;
  }

  async reset(): Promise<void> {
    await this.client.deleteCollection(this.collection);
    this.ready = undefined;
    await this.ensure();
  }

  async close(): Promise<void> {}
}

/** The URL without its credentials, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(an invalid URL)';
  }
}

function describeError(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}

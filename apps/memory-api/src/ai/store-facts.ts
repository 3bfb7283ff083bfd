import type { MemoryStore } from '../memories/memory-store.ts';
import { inferMemoryType } from '../memories/memory-types.ts';
import type { Fact } from './extract.ts';

export interface StoreFactsInput {
  facts: Fact[];
  namespace: string;
  tags: string[];
  /** Every fact gets this type; without it each fact's type is inferred as /remember does. */
  type: string | undefined;
  method: 'rules' | 'model';
  model: string | undefined;
}

export interface StoredFact {
  id: string;
  content: string;
  type: string;
  /** False when a live memory already said the same (the existing one is returned). */
  created: boolean;
}

export interface StoreFactsResult {
  memories: StoredFact[];
  graph: { nodes_created: number; edges_created: number };
}

/** Entity kinds that become graph nodes; dates and quantities are attributes of a fact, not things. */
const NODE_KINDS = new Set(['name', 'email', 'url']);
const NODE_LABEL_MAX = 200;
const PRONOUNS = new Set(['i', 'you', 'he', 'she', 'it', 'we', 'they', 'this', 'that', 'these', 'those']);

/** The main entity of a fact, stored as metadata `entity` so that `/recall {entity}` can filter on it. */
function primaryEntity(fact: Fact): string | undefined {
  const names = fact.entities.filter((e) => e.kind === 'name').map((e) => e.text);
  return names.find((n) => fact.relationships.some((r) => r.subject === n)) ?? names[0];
}

/**
 * Stores each fact as a memory (through the store, so near-duplicates, auto-links and timeline
 * events behave as on /remember), then records the entities as graph nodes: each fact's memory
 * `mentions` its entities, and each relationship is an edge between entity nodes named by its predicate.
 */
export async function storeFacts(store: MemoryStore, input: StoreFactsInput): Promise<StoreFactsResult> {
  const memories: StoredFact[] = [];
  for (const fact of input.facts) {
    const inferred = input.type === undefined;
    const memoryType = input.type ?? inferMemoryType(fact.text);
    const entity = primaryEntity(fact);
    const result = await store.remember({
      content: fact.text,
      tags: input.tags,
      namespace: input.namespace,
      memoryType,
      metadata: {
        extracted: { method: input.method, ...(input.model ? { model: input.model } : {}) },
        entities: fact.entities,
        relationships: fact.relationships,
        ...(entity ? { entity } : {}),
      },
      sourceType: 'extract',
      evidence: { type_inferred: inferred, extracted_by: input.method },
    });
    memories.push({
      id: result.row.id,
      content: result.row.content,
      type: result.row.memoryType,
      created: result.created,
    });
  }
  const graph = await linkEntities(store, input.namespace, input.facts, memories);
  return { memories, graph };
}

async function linkEntities(
  store: MemoryStore,
  namespace: string,
  facts: Fact[],
  memories: StoredFact[],
): Promise<StoreFactsResult['graph']> {
  return store.db.sql.transaction(async (tx) => {
    let nodesCreated = 0;
    let edgesCreated = 0;
    const entityNodes = new Map<string, string>();
    // Entity nodes are found again by label (case-insensitive) in the namespace, so a second
    // document about "Acme Corp" joins the node the first one made.
    const entityNode = async (label: string): Promise<string> => {
      const text = label.slice(0, NODE_LABEL_MAX);
      const key = text.toLowerCase();
      const known = entityNodes.get(key);
      if (known) return known;
      const [found] = await tx.query<{ id: string }>(
        `SELECT id::text FROM graph_nodes WHERE namespace = $1 AND kind = 'entity' AND memory_id IS NULL
           AND lower(label) = lower($2) ORDER BY created_at LIMIT 1`,
        [namespace, text],
      );
      let id = found?.id;
      if (!id) {
        const [made] = await tx.query<{ id: string }>(
          `INSERT INTO graph_nodes (id, namespace, label, kind, created_at)
           VALUES (gen_random_uuid(), $1, $2, 'entity', now()) RETURNING id::text`,
          [namespace, text],
        );
        id = made?.id as string;
        nodesCreated++;
      }
      entityNodes.set(key, id);
      return id;
    };
    const memoryNode = async (memoryId: string, content: string): Promise<string> => {
      const made = await tx.query<{ id: string }>(
        `INSERT INTO graph_nodes (id, namespace, label, kind, memory_id, created_at)
         VALUES (gen_random_uuid(), $1, $2, 'memory', $3::uuid, now()) ON CONFLICT (memory_id) DO NOTHING RETURNING id::text`,
        [namespace, content.slice(0, 80), memoryId],
      );
      if (made[0]) {
        nodesCreated++;
        return made[0].id;
      }
      const [found] = await tx.query<{ id: string }>('SELECT id::text FROM graph_nodes WHERE memory_id = $1::uuid', [
        memoryId,
      ]);
      return found?.id as string;
    };
    const edge = async (source: string, target: string, type: string) => {
      if (source === target) return;
      const made = await tx.query(
        `INSERT INTO graph_edges (id, source_id, target_id, edge_type, weight, created_at)
         VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, 1, now()) ON CONFLICT DO NOTHING RETURNING 1`,
        [source, target, type],
      );
      edgesCreated += made.length;
    };

    for (const [i, fact] of facts.entries()) {
      const memory = memories[i] as StoredFact;
      const things = fact.entities.filter((e) => NODE_KINDS.has(e.kind));
      if (things.length > 0) {
        const from = await memoryNode(memory.id, memory.content);
        for (const e of things) await edge(from, await entityNode(e.text), 'mentions');
      }
      for (const r of fact.relationships) {
        // "She prefers tea" names nobody a graph could hold.
        if (PRONOUNS.has(r.subject.toLowerCase())) continue;
        await edge(await entityNode(r.subject), await entityNode(r.object), r.predicate);
      }
    }
    return { nodes_created: nodesCreated, edges_created: edgesCreated };
  });
}

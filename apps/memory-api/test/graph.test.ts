import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, edgeKeys, HASH_BOUNDS, remember, seedEdges, seedMemories, sql } from './graph-support.ts';
import { FULL_TOKEN as FULL, openTestApp, READ_TOKEN as READ, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ env: HASH_BOUNDS });
});
afterAll(() => t.close());

describe('auto-links in /graph and /edges', () => {
  it('shows similar_to edges written by /remember, with the referenced_by backlink kept by the trigger', async () => {
    const a = await remember(t, { content: 'release train leaves every second Tuesday morning', namespace: 'auto' });
    const b = await remember(t, { content: 'release train leaves every second Tuesday evening', namespace: 'auto' });
    expect(b.status).toBe(201);

    const graph = await t.call('GET', '/graph?namespace=auto');
    expect(graph.status).toBe(200);
    expect(graph.body.truncated).toBe(false);
    const link = graph.body.edges.find((e: { edge_type: string }) => e.edge_type === 'similar_to');
    expect(link).toMatchObject({ source: b.body.id, target: a.body.id, origin: 'memory' });
    expect(link.weight).toBeGreaterThanOrEqual(0.5);
    expect(graph.body.nodes.map((n: { id: string }) => n.id).sort()).toEqual([a.body.id, b.body.id].sort());
    const nodeA = graph.body.nodes.find((n: { id: string }) => n.id === a.body.id);
    expect(nodeA).toEqual({
      id: a.body.id,
      kind: 'memory',
      label: a.body.content,
      type: a.body.type,
      namespace: 'auto',
      tags: [],
      importance: 0.5,
      pinned: false,
    });

    const ofA = await t.call('GET', `/edges?id=${a.body.id}`);
    expect(ofA.status).toBe(200);
    expect(ofA.body.outgoing).toEqual([]);
    expect(ofA.body.incoming).toEqual([
      expect.objectContaining({
        source: b.body.id,
        target: a.body.id,
        edge_type: 'similar_to',
        other_status: 'active',
      }),
    ]);
    expect(ofA.body.referenced_by).toEqual([
      expect.objectContaining({ id: b.body.id, edge_type: 'similar_to', status: 'active' }),
    ]);
    const ofB = await t.call('GET', `/edges?id=${b.body.id}`);
    expect(ofB.body.outgoing).toHaveLength(1);
    expect(ofB.body.referenced_by).toEqual([]);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await t.call('GET', `/edges?id=${randomUUID()}`)).status).toBe(404);
    const bad = await t.call('GET', '/edges?id=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('id');
  });
});

describe('POST and DELETE /graph/edge', () => {
  it('links two memories by id, creating their graph nodes on demand, and records the link', async () => {
    const [a, b] = (await seedMemories(t, 'explicit', 2)) as [string, string];
    const res = await t.call('POST', '/graph/edge', { source: a, target: b, edge_type: 'depends_on', weight: 0.7 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ok: true, created: true });
    const nodes = await sql<{ id: string; memory_id: string }>(
      t,
      `SELECT id::text AS id, memory_id::text AS memory_id FROM graph_nodes WHERE memory_id IN ($1::uuid, $2::uuid)`,
      [a, b],
    );
    const nodeOf = new Map(nodes.map((n) => [n.memory_id, n.id]));
    expect(res.body.source_node).toBe(nodeOf.get(a as string));
    expect(res.body.target_node).toBe(nodeOf.get(b as string));

    // The same edge again re-weights it: no second row, no second node.
    const again = await t.call('POST', '/graph/edge', { source: a, target: b, edge_type: 'depends_on', weight: 0.9 });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, source_node: res.body.source_node });
    expect(await count(t, `graph_edges WHERE source_id = '${res.body.source_node}'`)).toBe(1);

    const graph = await t.call('GET', '/graph?namespace=explicit');
    expect(graph.body.edges).toEqual([
      expect.objectContaining({ source: a, target: b, edge_type: 'depends_on', weight: 0.9, origin: 'graph' }),
    ]);
    const edges = await t.call('GET', `/edges?id=${b}`);
    expect(edges.body.incoming).toEqual([expect.objectContaining({ source: a, origin: 'graph' })]);
    expect(edges.body.referenced_by).toEqual([expect.objectContaining({ id: a, edge_type: 'depends_on' })]);
    const timeline = await t.call('GET', `/timeline?id=${a}`);
    expect(timeline.body.events.map((e: { kind: string }) => e.kind)).toEqual(['linked', 'link_updated']);
    expect(timeline.body.events[0].evidence).toMatchObject({
      edge_type: 'depends_on',
      direction: 'outgoing',
      other: b,
    });
  });

  it('takes graph node ids too, and links a memory to a free-standing entity node', async () => {
    const [m] = (await seedMemories(t, 'entities', 1)) as [string];
    const entity = randomUUID();
    await sql(
      t,
      `INSERT INTO graph_nodes (id, namespace, label, kind) VALUES ($1::uuid, 'entities', 'Ada Lovelace', 'person')`,
      [entity],
    );
    const res = await t.call('POST', '/graph/edge', { source: m, target: entity, edge_type: 'mentions' });
    expect(res.status).toBe(201);
    expect(res.body.target_node).toBe(entity);
    expect(res.body.edge).toMatchObject({ source: m, target: entity, weight: 1 });

    const graph = await t.call('GET', '/graph?namespace=entities');
    expect(graph.body.nodes).toContainEqual({
      id: entity,
      kind: 'person',
      label: 'Ada Lovelace',
      namespace: 'entities',
    });
    expect(edgeKeys(graph.body.edges)).toEqual([`${m}>${entity}`]);
    // No backlink: only edges between two memories refer from one memory to another.
    expect((await t.call('GET', `/edges?id=${m}`)).body.referenced_by).toEqual([]);

    // Deleting by the memory's node id and the entity's id.
    const del = await t.call('DELETE', `/graph/edge?source=${res.body.source_node}&target=${entity}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ ok: true, deleted: 1 });
    expect((await t.call('GET', '/graph?namespace=entities')).body.edges).toEqual([]);
    expect((await t.call('DELETE', `/graph/edge?source=${m}&target=${entity}`)).status).toBe(404);
  });

  it('deletes explicit edges and auto-links between memories by memory id, and their backlinks with them', async () => {
    const [a, b] = (await seedMemories(t, 'unlink', 2)) as [string, string];
    await seedEdges(t, [[a as string, b as string, 0.8]]);
    await t.call('POST', '/graph/edge', { source: a, target: b, edge_type: 'cites' });
    expect(
      (await t.call('GET', `/edges?id=${b}`)).body.referenced_by.map((r: { edge_type: string }) => r.edge_type).sort(),
    ).toEqual(['cites', 'similar_to']);

    const one = await t.call('DELETE', `/graph/edge?source=${a}&target=${b}&edge_type=cites`);
    expect(one.body).toMatchObject({
      deleted: 1,
      edges: [expect.objectContaining({ edge_type: 'cites', origin: 'graph' })],
    });
    const rest = await t.call('DELETE', `/graph/edge?source=${a}&target=${b}`);
    expect(rest.body).toMatchObject({
      deleted: 1,
      edges: [expect.objectContaining({ edge_type: 'similar_to', origin: 'memory' })],
    });
    const after = await t.call('GET', `/edges?id=${b}`);
    expect(after.body.incoming).toEqual([]);
    expect(after.body.referenced_by).toEqual([]);
    // The direction matters: there is no edge from b to a.
    expect((await t.call('DELETE', `/graph/edge?source=${b}&target=${a}`)).status).toBe(404);
    const timeline = await t.call('GET', `/timeline?id=${a}`);
    expect(timeline.body.events.map((e: { kind: string }) => e.kind)).toEqual(['linked', 'unlinked', 'unlinked']);
  });

  it('rejects bad requests with a clear message and changes nothing', async () => {
    const [a, b] = (await seedMemories(t, 'bad-edges', 2)) as [string, string];
    const [other] = (await seedMemories(t, 'bad-edges-elsewhere', 1)) as [string];
    const link = await t.call('POST', '/graph/edge', { source: a, target: b });
    const before = await count(t, 'graph_edges');
    const cases: [Record<string, unknown>, number, string][] = [
      [{ source: a, target: randomUUID() }, 404, 'target'],
      [{ source: randomUUID(), target: b }, 404, 'source'],
      [{ source: a, target: a }, 400, 'self-loop'],
      [{ source: a, target: link.body.source_node }, 400, 'self-loop'],
      [{ source: a, target: b, weight: 2 }, 400, 'weight'],
      [{ source: a, target: b, weight: 0 }, 400, 'weight'],
      [{ source: a, target: b, weight: 'heavy' }, 400, 'weight'],
      [{ source: a, target: b, edge_type: 'Depends On' }, 400, 'edge_type'],
      [{ source: a, target: b, edge_type: 'superseded_by' }, 400, 'managed by the service'],
      [{ source: a, target: b, edge_type: 7 }, 400, 'edge_type'],
      [{ source: 'not-a-uuid', target: b }, 400, 'source'],
      [{ source: a }, 400, 'target'],
      [{ source: a, target: other }, 400, 'namespace'],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.call('POST', '/graph/edge', body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expect(res.body.error).toContain(message);
    }
    await t.call('DELETE', `/forget?id=${b}`);
    const deprecated = await t.call('POST', '/graph/edge', { source: b, target: a, edge_type: 'other' });
    expect(deprecated.status).toBe(409);
    expect(deprecated.body.error).toContain('deprecated');
    expect(await count(t, 'graph_edges')).toBe(before);

    expect((await t.call('DELETE', `/graph/edge?source=${a}`)).status).toBe(400);
    expect((await t.call('DELETE', `/graph/edge?source=${a}&target=${b}&edge_type=superseded_by`)).status).toBe(400);
    expect((await t.call('DELETE', `/graph/edge?source=${a}&target=${randomUUID()}`)).status).toBe(404);
  });
});

describe('GET /graph limits, neighbourhoods and namespaces', () => {
  it('returns at most limit edges (default 500), strongest first, and says when it cut some off', async () => {
    const ids = await seedMemories(t, 'big', 120);
    // 600 edges: each memory to the next five, weights spread over 0.01..1.
    const edges: [string, string, number][] = [];
    for (let i = 0; i < ids.length; i++)
      for (let k = 1; k <= 5; k++)
        edges.push([ids[i] as string, ids[(i + k) % ids.length] as string, ((i * 5 + k) % 100) / 100 + 0.01]);
    await seedEdges(t, edges);

    const byDefault = await t.call('GET', '/graph?namespace=big');
    expect(byDefault.body.limit).toBe(500);
    expect(byDefault.body.edges).toHaveLength(500);
    expect(byDefault.body.truncated).toBe(true);
    const weights = byDefault.body.edges.map((e: { weight: number }) => e.weight);
    expect(weights).toEqual([...weights].sort((x: number, y: number) => y - x));
    expect(Math.min(...weights)).toBeGreaterThanOrEqual(
      Math.max(
        ...edges
          .map((e) => e[2])
          .sort((x, y) => y - x)
          .slice(500),
      ),
    );

    const small = await t.call('GET', '/graph?namespace=big&limit=10');
    expect(small.body.edges).toHaveLength(10);
    expect(small.body.truncated).toBe(true);
    const all = await t.call('GET', '/graph?namespace=big&limit=5000');
    expect(all.body.edges).toHaveLength(600);
    expect(all.body.truncated).toBe(false);
    expect(all.body.nodes).toHaveLength(120);
    const exact = await t.call('GET', '/graph?namespace=big&limit=600');
    expect(exact.body.truncated).toBe(false);

    for (const bad of ['5001', '0', '-3', '2.5', 'many']) {
      const res = await t.call('GET', `/graph?namespace=big&limit=${bad}`);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      expect(res.body.error).toContain('limit');
    }
  });

  it('answers the neighbourhood of a memory out to depth 1..3', async () => {
    const [a, b, c, d, x] = (await seedMemories(t, 'chain', 5)) as [string, string, string, string, string];
    await seedEdges(t, [
      [a as string, b as string, 0.9],
      [c as string, b as string, 0.8],
      [c as string, d as string, 0.7],
    ]);
    await t.call('POST', '/graph/edge', { source: x, target: d, edge_type: 'related_to' });
    const hood = async (query: string) => (await t.call('GET', `/graph?node_id=${a}${query}`)).body;

    const one = await hood('');
    expect(one.depth).toBe(1);
    expect(one.node_id).toBe(a);
    expect(edgeKeys(one.edges)).toEqual([`${a}>${b}`]);
    expect(one.nodes.map((n: { id: string }) => n.id).sort()).toEqual([a, b].sort());
    expect(edgeKeys((await hood('&depth=2')).edges)).toEqual(
      edgeKeys([
        { source: a, target: b },
        { source: c, target: b },
      ]),
    );
    expect(edgeKeys((await hood('&depth=3')).edges)).toHaveLength(3);
    const three = await hood('&depth=3&namespace=chain');
    expect(three.edges).toHaveLength(3);
    expect(three.nodes).toHaveLength(4);
    expect(three.truncated).toBe(false);
    const cut = await hood('&depth=3&limit=2');
    expect(cut.edges).toHaveLength(2);
    expect(cut.truncated).toBe(true);
    // Reached from the explicit edge's other end as well: x is two hops from c.
    expect(edgeKeys((await t.call('GET', `/graph?node_id=${c}&depth=2`)).body.edges)).toContain(`${x}>${d}`);

    expect((await t.call('GET', `/graph?node_id=${a}&depth=4`)).status).toBe(400);
    expect((await t.call('GET', '/graph?depth=2')).status).toBe(400);
    expect((await t.call('GET', `/graph?node_id=${randomUUID()}`)).status).toBe(404);
    expect((await t.call('GET', '/graph?node_id=abc')).status).toBe(400);
  });

  it('keeps namespaces apart both ways and leaves deprecated memories out', async () => {
    const [a1, a2, a3] = (await seedMemories(t, 'tenant-a', 3)) as [string, string, string];
    const [b1, b2] = (await seedMemories(t, 'tenant-b', 2)) as [string, string];
    await seedEdges(t, [
      [a1, a2, 0.9],
      [a2, a3, 0.9],
      [b1, b2, 0.9],
    ]);
    await t.call('POST', '/graph/edge', { source: b2, target: b1, edge_type: 'cites' });
    const idsOf = (body: { nodes: { id: string }[]; edges: { source: string; target: string }[] }) =>
      new Set([...body.nodes.map((n) => n.id), ...body.edges.flatMap((e) => [e.source, e.target])]);

    const seenByA = idsOf((await t.call('GET', '/graph?namespace=tenant-a')).body);
    const seenByB = idsOf((await t.call('GET', '/graph?namespace=tenant-b')).body);
    expect([...seenByA].sort()).toEqual([a1, a2, a3].sort());
    expect([...seenByB].sort()).toEqual([b1, b2].sort());
    // A neighbourhood asked for in the wrong namespace is not found, whichever way round.
    expect((await t.call('GET', `/graph?namespace=tenant-a&node_id=${b1}`)).status).toBe(404);
    expect((await t.call('GET', `/graph?namespace=tenant-b&node_id=${a1}`)).status).toBe(404);
    // Without a namespace the graph spans all of them.
    const everything = idsOf((await t.call('GET', '/graph?limit=5000')).body);
    for (const id of [a1, a2, a3, b1, b2]) expect(everything.has(id)).toBe(true);

    await t.call('DELETE', `/forget?id=${a2}`);
    const afterForget = await t.call('GET', '/graph?namespace=tenant-a');
    expect(afterForget.body.edges).toEqual([]);
    expect(afterForget.body.nodes).toEqual([]);
    expect((await t.call('GET', `/graph?node_id=${a2}`)).status).toBe(404);
  });
});

describe('POST /rebuild-backlinks', () => {
  it('repairs an emptied (and a polluted) backlinks table from the edges', async () => {
    const [a, b, c] = (await seedMemories(t, 'backlinks', 3)) as [string, string, string];
    await seedEdges(t, [
      [a, b, 0.9],
      [c, b, 0.6],
    ]);
    await t.call('POST', '/graph/edge', { source: a, target: c, edge_type: 'cites' });
    const expected = (await t.call('GET', `/edges?id=${b}`)).body.referenced_by;
    expect(expected.map((r: { id: string }) => r.id).sort()).toEqual([a, c].sort());
    const total = await count(t, 'memory_backlinks');

    await sql(t, 'DELETE FROM memory_backlinks');
    await sql(
      t,
      `INSERT INTO memory_backlinks (memory_id, referrer_id, edge_type) VALUES ($1::uuid, $2::uuid, 'bogus')`,
      [a, c],
    );
    expect((await t.call('GET', `/edges?id=${b}`)).body.referenced_by).toEqual([]);

    const rebuilt = await t.call('POST', '/rebuild-backlinks');
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body).toMatchObject({ ok: true, removed: 1, added: total, backlinks: total });
    expect(rebuilt.body.from_memory_edges).toBe(await count(t, 'memory_edges'));
    expect((await t.call('GET', `/edges?id=${b}`)).body.referenced_by).toEqual(expected);
    expect((await t.call('GET', `/edges?id=${c}`)).body.referenced_by).toEqual([
      expect.objectContaining({ id: a, edge_type: 'cites' }),
    ]);
    // A second rebuild finds nothing to do.
    expect((await t.call('POST', '/rebuild-backlinks')).body).toMatchObject({ removed: 0, added: 0, backlinks: total });
  });
});

describe('read-only tokens', () => {
  let secured: TestApp;
  beforeAll(async () => {
    secured = await openTestApp({ env: { ...HASH_BOUNDS, AUTH_TOKENS: FULL, READ_ONLY_TOKENS: READ } });
  });
  afterAll(() => secured.close());

  it('may read the graph but gets 403 on every graph write', async () => {
    const [a, b] = (await seedMemories(secured, 'default', 2)) as [string, string];
    const denied = await secured.call('POST', '/graph/edge', { source: a, target: b }, READ);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toContain('read-only');
    expect(await count(secured, 'graph_edges')).toBe(0);
    expect((await secured.call('DELETE', `/graph/edge?source=${a}&target=${b}`, undefined, READ)).status).toBe(403);
    expect((await secured.call('POST', '/rebuild-backlinks', undefined, READ)).status).toBe(403);
    expect((await secured.call('POST', '/contradictions/undo', { id: a }, READ)).status).toBe(403);

    expect((await secured.call('POST', '/graph/edge', { source: a, target: b }, FULL)).status).toBe(201);
    const read = await secured.call('GET', '/graph', undefined, READ);
    expect(read.status).toBe(200);
    expect(read.body.edges).toHaveLength(1);
    expect((await secured.call('GET', `/edges?id=${a}`, undefined, READ)).status).toBe(200);
    expect((await secured.call('GET', '/graph')).status).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { HASH_BOUNDS, remember, sql } from './graph-support.ts';
import { openTestApp, type TestApp } from './helpers.ts';

// The graph on Postgres: backlinks kept by its trigger, links, supersession and its undo.
describe.skipIf(missing('postgres'))('on Postgres', () => {
  let pg: TestApp;
  beforeAll(async () => {
    pg = await openTestApp({ database: 'postgres', env: HASH_BOUNDS });
  });
  afterAll(() => pg?.close());

  it('keeps backlinks by trigger, links by id, lists and undoes a supersession', async () => {
    const a = await remember(pg, { content: 'backups run nightly at two in the morning', namespace: 'ops' });
    const b = await remember(pg, { content: 'backups run nightly at three in the morning', namespace: 'ops' });
    const c = await remember(pg, {
      content: 'backups run nightly at three in the morning on weekdays',
      namespace: 'ops',
      detect_contradiction: true,
    });
    expect(c.body.superseded.id).toBe(b.body.id);
    const link = await pg.call('POST', '/graph/edge', { source: a.body.id, target: c.body.id, edge_type: 'see_also' });
    expect(link.status).toBe(201);

    const graph = await pg.call('GET', '/graph?namespace=ops');
    const ids = new Set(graph.body.nodes.map((n: { id: string }) => n.id));
    expect(ids.has(b.body.id)).toBe(false);
    expect(graph.body.edges).toContainEqual(
      expect.objectContaining({ source: a.body.id, target: c.body.id, origin: 'graph' }),
    );
    const backlinks = (await pg.call('GET', `/edges?id=${c.body.id}`)).body.referenced_by;
    expect(backlinks).toContainEqual(expect.objectContaining({ id: a.body.id, edge_type: 'see_also' }));
    expect(backlinks).toContainEqual(expect.objectContaining({ id: b.body.id, edge_type: 'superseded_by' }));

    expect((await pg.call('GET', '/contradictions')).body.contradictions[0].memory.id).toBe(b.body.id);
    const undo = await pg.call('POST', '/contradictions/undo', { id: b.body.id });
    expect(undo.body.memory.status).toBe('active');
    expect((await pg.call('GET', `/edges?id=${c.body.id}`)).body.referenced_by).not.toContainEqual(
      expect.objectContaining({ edge_type: 'superseded_by' }),
    );
    await sql(pg, 'DELETE FROM memory_backlinks');
    const rebuilt = await pg.call('POST', '/rebuild-backlinks');
    expect(rebuilt.body.added).toBe(rebuilt.body.backlinks);
    expect(rebuilt.body.backlinks).toBeGreaterThan(0);
  });
});

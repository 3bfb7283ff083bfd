import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASH_BOUNDS, remember, seedMemories } from './graph-support.ts';
import { openTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ env: HASH_BOUNDS });
});
afterAll(() => t.close());

describe('supersession: /contradictions and /contradictions/undo', () => {
  it('lists a superseded memory, and undo takes it from deprecated back to active', async () => {
    const old = await remember(t, { content: 'The team standup is at 9:30 in room Orion', namespace: 'standup' });
    const next = await remember(t, {
      content: 'The team standup is at 10:00 in room Orion',
      namespace: 'standup',
      detect_contradiction: true,
    });
    expect(next.body.superseded.id).toBe(old.body.id);

    const listed = await t.call('GET', '/contradictions?namespace=standup');
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(1);
    expect(listed.body.contradictions[0]).toMatchObject({
      memory: { id: old.body.id, status: 'deprecated' },
      superseded_by: { id: next.body.id, status: 'active' },
    });
    expect(listed.body.contradictions[0].similarity).toBeGreaterThanOrEqual(0.6);
    expect((await t.call('GET', '/contradictions?namespace=elsewhere')).body.contradictions).toEqual([]);
    // The pair is visible on the retired memory's edges, but not in the graph of live memories.
    expect((await t.call('GET', `/edges?id=${old.body.id}`)).body.outgoing).toContainEqual(
      expect.objectContaining({ target: next.body.id, edge_type: 'superseded_by', other_status: 'active' }),
    );
    expect((await t.call('GET', `/edges?id=${next.body.id}`)).body.referenced_by).toContainEqual(
      expect.objectContaining({ id: old.body.id, edge_type: 'superseded_by', status: 'deprecated' }),
    );
    const recallBefore = await t.call('POST', '/recall', { query: 'team standup 9:30 Orion', namespace: 'standup' });
    expect(recallBefore.body.map((r: { id: string }) => r.id)).not.toContain(old.body.id);

    const undo = await t.call('POST', '/contradictions/undo', { id: old.body.id });
    expect(undo.status).toBe(200);
    expect(undo.body).toMatchObject({
      ok: true,
      memory: { id: old.body.id, status: 'active', deprecated_at: null },
      superseded_by: [{ id: next.body.id }],
    });
    expect((await t.call('GET', `/memory?id=${old.body.id}`)).body.status).toBe('active');
    expect((await t.call('GET', `/memory?id=${next.body.id}`)).body.status).toBe('active');
    expect((await t.call('GET', '/contradictions?namespace=standup')).body.contradictions).toEqual([]);
    const edges = await t.call('GET', `/edges?id=${old.body.id}`);
    expect(edges.body.outgoing.filter((e: { edge_type: string }) => e.edge_type === 'superseded_by')).toEqual([]);
    expect((await t.call('GET', `/edges?id=${next.body.id}`)).body.referenced_by).toEqual([]);

    const oldEvents = (await t.call('GET', `/timeline?id=${old.body.id}`)).body.events;
    const newEvents = (await t.call('GET', `/timeline?id=${next.body.id}`)).body.events;
    expect(oldEvents.map((e: { kind: string }) => e.kind)).toEqual(['created', 'superseded', 'supersession_undone']);
    expect(newEvents.map((e: { kind: string }) => e.kind)).toEqual(['created', 'supersedes', 'supersession_undone']);
    expect(oldEvents[2]).toMatchObject({ actor: 'api', evidence: { restored: true, superseded_by: [next.body.id] } });
    expect(newEvents[2]).toMatchObject({ actor: 'api', evidence: { restored_id: old.body.id, role: 'superseding' } });

    // The vector catalog knows it is live again: recall and list find it.
    const recallAfter = await t.call('POST', '/recall', { query: 'team standup 9:30 Orion', namespace: 'standup' });
    expect(recallAfter.body.map((r: { id: string }) => r.id)).toContain(old.body.id);
    const list = await t.call('POST', '/list', { namespace: 'standup' });
    expect(list.body.map((r: { id: string }) => r.id).sort()).toEqual([old.body.id, next.body.id].sort());

    // Undoing twice is a conflict, and changes nothing.
    const twice = await t.call('POST', '/contradictions/undo', { id: old.body.id });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toContain('active');
    expect((await t.call('GET', `/timeline?id=${old.body.id}`)).body.events).toHaveLength(3);
  });

  it('refuses memories that are not superseded, unknown ids and malformed ids', async () => {
    const [live, forgotten] = (await seedMemories(t, 'undo-errors', 2)) as [string, string];
    await t.call('DELETE', `/forget?id=${forgotten}`);
    expect((await t.call('POST', '/contradictions/undo', { id: live })).status).toBe(409);
    const notSuperseded = await t.call('POST', '/contradictions/undo', { id: forgotten });
    expect(notSuperseded.status).toBe(409);
    expect(notSuperseded.body.error).toContain('not superseded');
    expect((await t.call('GET', `/memory?id=${forgotten}`)).body.status).toBe('deprecated');
    expect((await t.call('POST', '/contradictions/undo', { id: randomUUID() })).status).toBe(404);
    expect((await t.call('POST', '/contradictions/undo', { id: 'x' })).status).toBe(400);
    expect((await t.call('POST', '/contradictions/undo', {})).status).toBe(400);
    expect((await t.call('GET', '/contradictions?limit=1001')).status).toBe(400);
  });
});

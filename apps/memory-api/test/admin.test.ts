import { afterEach, describe, expect, it } from 'vitest';
import { inProcessCatalog } from '../src/memories/memory-index.ts';
import { openTestApp, type TestApp } from './helpers.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function seeded() {
  t = await openTestApp();
  const add = async (body: Record<string, unknown>) =>
    (await (t as TestApp).call('POST', '/remember', body)).body.id as string;
  return {
    t,
    a1: await add({ content: 'alpha one about builds', namespace: 'a', tags: ['ci', 'old'] }),
    a2: await add({ content: 'alpha two about tests', namespace: 'a', tags: ['old', 'new'] }),
    b1: await add({ content: 'beta one about deploys', namespace: 'b', tags: ['old'], type: 'decision' }),
  };
}

describe('tags', () => {
  it('lists with counts, renames (merging with an existing tag) and deletes, per namespace or everywhere', async () => {
    const { t, a1, a2, b1 } = await seeded();
    expect((await t.call('GET', '/tags?namespace=a')).body).toEqual([
      { tag: 'old', count: 2 },
      { tag: 'ci', count: 1 },
      { tag: 'new', count: 1 },
    ]);
    const renamed = await t.call('POST', '/tags/rename', { old: 'old', new: 'new', namespace: 'a' });
    expect(renamed.body).toEqual({ old: 'old', new: 'new', namespace: 'a', updated: 2 });
    expect((await t.call('GET', `/memory?id=${a2}`)).body.tags).toEqual(['new']);
    expect((await t.call('GET', `/memory?id=${a1}`)).body.tags).toEqual(['ci', 'new']);
    expect((await t.call('GET', `/memory?id=${b1}`)).body.tags).toEqual(['old']);
    // The recall tag filter sees the change at once (the vector arm's catalog is refreshed).
    const r = await t.call('POST', '/recall', { query: 'alpha', tags: ['new'], strategy: 'vector' });
    expect(r.body.map((m: { id: string }) => m.id).sort()).toEqual([a1, a2].sort());
    const deleted = await t.call('POST', '/tags/delete', { tag: 'new' });
    expect(deleted.body.updated).toBe(2);
    expect((await t.call('GET', '/tags')).body).toEqual([
      { tag: 'ci', count: 1 },
      { tag: 'old', count: 1 },
    ]);
    expect((await t.call('POST', '/tags/rename', { old: 'x' })).status).toBe(400);
  });
});

describe('namespaces', () => {
  it('lists with counts, renames with merge, and deletes by refuse (409), merge or deprecate', async () => {
    const { t, a1, b1 } = await seeded();
    expect((await t.call('GET', '/namespaces')).body).toEqual({ namespaces: [{ name: 'a' }, { name: 'b' }] });
    await t.call('DELETE', `/forget?id=${a1}`);
    expect((await t.call('GET', '/namespaces?with_counts=true')).body.namespaces).toEqual([
      { name: 'a', count: 2, active: 1, deprecated: 1 },
      { name: 'b', count: 1, active: 1, deprecated: 0 },
    ]);
    const refused = await t.call('POST', '/namespaces/delete', { name: 'a' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/referenced by 2 memories/);
    expect((await t.call('POST', '/namespaces/delete', { name: 'zzz' })).status).toBe(404);
    expect((await t.call('POST', '/namespaces/delete', { name: 'a', strategy: 'merge' })).status).toBe(400);
    expect((await t.call('POST', '/namespaces/delete', { name: 'a', strategy: 'shred' })).status).toBe(400);

    const renamed = await t.call('POST', '/namespaces/rename', { from: 'b', to: 'a' });
    expect(renamed.body).toEqual({ from: 'b', to: 'a', moved: 1, target_existed: true });
    expect((await t.call('GET', '/namespaces')).body.namespaces).toEqual([{ name: 'a' }]);
    const found = await t.call('POST', '/recall', { query: 'beta deploys', namespace: 'a', strategy: 'vector' });
    expect(found.body[0].id).toBe(b1);
    expect((await t.call('POST', '/recall', { query: 'beta deploys', namespace: 'b' })).body).toEqual([]);

    const merged = await t.call('POST', '/namespaces/delete', { name: 'a', strategy: 'merge', target: 'c' });
    expect(merged.body).toEqual({ name: 'a', strategy: 'merge', target: 'c', moved: 3 });
    const dep = await t.call('POST', '/namespaces/delete', { name: 'c', strategy: 'deprecate' });
    expect(dep.body).toEqual({ name: 'c', strategy: 'deprecate', deprecated: 2 });
    expect((await t.call('POST', '/recall', { query: 'alpha beta', namespace: 'c' })).body).toEqual([]);
    // Deprecated, not deleted: the rows stay and the namespace still has them.
    expect((await t.call('GET', '/namespaces?with_counts=true')).body.namespaces).toEqual([
      { name: 'c', count: 3, active: 0, deprecated: 3 },
    ]);
    const timeline = await t.app.memoryStore.db.prisma.memoryEvent.findMany({
      where: { memoryId: b1 },
      orderBy: { id: 'asc' },
    });
    expect(timeline.map((e) => e.kind)).toEqual(['created', 'namespace_moved', 'namespace_moved', 'deprecated']);
  });
});

describe('stats', () => {
  it('counts by GET query or POST body', async () => {
    const { t, a1 } = await seeded();
    await t.call('POST', '/pin', { id: a1 });
    const all = (await t.call('GET', '/stats')).body;
    expect(all).toMatchObject({
      namespace: null,
      count: 3,
      total: 3,
      active: 3,
      deprecated: 0,
      pinned: 1,
      namespaces: 2,
      embedded: 3,
    });
    expect(all.by_type.decision).toBe(1);
    const b = (await t.call('POST', '/stats', { namespace: 'b' })).body;
    expect(b).toMatchObject({ namespace: 'b', count: 1, tags: 1, by_type: { decision: 1 } });
    expect((await t.call('GET', '/stats?namespace=a')).body.count).toBe(2);
  });
});

describe('import and export', () => {
  it('round-trips every field, skips ids it already has, and rejects a bad line without importing anything', async () => {
    const { t: first, a1, a2 } = await seeded();
    let t = first;
    await t.call('PUT', '/memory', { id: a1, importance: 0.7, pinned: true, metadata: { k: 'v' } });
    await t.call('POST', '/memory/feedback', { id: a1, feedback: 'unhelpful' });
    await t.call('DELETE', `/forget?id=${a1}`);
    const exported = (await t.call('GET', '/export')).body;
    expect(exported).toHaveLength(3);
    const jsonl = (await t.call('GET', '/export?format=jsonl')).body as string;
    expect(jsonl.trim().split('\n')).toHaveLength(3);

    t = await openTestApp();
    const res = await t.call('POST', '/import', { content: jsonl });
    expect(res.body).toEqual({ imported: 3, skipped: 0, already_present: 0, copied_with_new_ids: 0, total: 3 });
    const again = (await t.call('GET', '/export')).body;
    const comparable = (m: Record<string, unknown>) => ({ ...m, access_count: undefined, last_accessed_at: undefined });
    expect(again.map(comparable)).toEqual(exported.map(comparable));
    expect((await t.call('POST', '/import', { content: jsonl })).body).toEqual({
      imported: 0,
      skipped: 3,
      already_present: 3,
      copied_with_new_ids: 0,
      total: 3,
    });
    expect((await t.call('POST', '/verify')).body.mismatch).toBe(false);
    // Imported memories are recallable at once; the deprecated one is not.
    const hits = await t.call('POST', '/recall', { query: 'alpha', strategy: 'vector' });
    expect(hits.body.map((m: { id: string }) => m.id)).not.toContain(a1);
    expect(hits.body.map((m: { id: string }) => m.id)).toContain(a2);

    const bad = await t.call('POST', '/import', {
      content: '{"content":"fine"}\n{"content":"bad type","type":"gossip"}\n',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^line 2: unknown memory type/);
    expect((await t.call('POST', '/import', { content: 'not json' })).body.error).toBe('line 1: is not valid JSON');
    expect((await t.call('GET', '/stats')).body.total).toBe(3);

    const over = await t.call('POST', '/import', {
      content: '{"content":"into another namespace"}',
      namespace: 'imported',
      tags: ['batch'],
    });
    expect(over.body.imported).toBe(1);
    const listed = (await t.call('POST', '/list', { namespace: 'imported' })).body;
    expect(listed[0]).toMatchObject({ namespace: 'imported', tags: ['batch'], type: 'fact' });
    await t.close();
  });

  it('copies into another namespace with new ids; a retried import, with or without ids, adds nothing', async () => {
    const { t } = await seeded();
    const jsonl = (await t.call('GET', '/export?format=jsonl&namespace=a')).body as string;
    const originals = jsonl
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    const copy = await t.call('POST', '/import', { content: jsonl, namespace: 'copy' });
    expect(copy.body).toEqual({ imported: 2, skipped: 0, already_present: 0, copied_with_new_ids: 2, total: 2 });
    const copies = (await t.call('POST', '/list', { namespace: 'copy' })).body.map((m: { id: string }) => m.id);
    expect(copies).toHaveLength(2);
    for (const id of copies) expect(originals).not.toContain(id);
    expect((await t.call('POST', '/import', { content: jsonl, namespace: 'copy' })).body).toMatchObject({
      imported: 0,
      already_present: 2,
    });
    // Lines without ids: matched by content in the target namespace, also against /remember's memories.
    await t.call('POST', '/remember', { content: 'Already remembered here', namespace: 'plain' });
    const noIds = ['Already remembered here', 'first new line', 'second new line', 'first new line']
      .map((content) => JSON.stringify({ content }))
      .join('\n');
    const once = await t.call('POST', '/import', { content: noIds, namespace: 'plain' });
    expect(once.body).toEqual({ imported: 2, skipped: 2, already_present: 2, copied_with_new_ids: 0, total: 4 });
    expect((await t.call('POST', '/import', { content: noIds, namespace: 'plain' })).body.imported).toBe(0);
    expect((await t.call('POST', '/stats', { namespace: 'plain' })).body.count).toBe(3);
    await t.close();
  });

  it('runs the content hooks for imported memories (a [[slug]] mention references its document)', async () => {
    const { t } = await seeded();
    await t.call('POST', '/doc/create', { slug: 'runbook', content: 'How we deploy', namespace: 'docs' });
    const res = await t.call('POST', '/import', {
      content: JSON.stringify({ content: 'see [[runbook]]' }),
      namespace: 'docs',
    });
    expect(res.body.imported).toBe(1);
    const refs = await t.call('POST', '/doc/mem-refs', { slug: 'runbook', namespace: 'docs' });
    expect(JSON.stringify(refs.body)).toContain('see [[runbook]]');
    await t.close();
  });

  it('runs the content hooks for memories a namespace rename moves (references follow the namespace)', async () => {
    const { t } = await seeded();
    await t.call('POST', '/doc/create', { slug: 'handbook', content: 'The handbook', namespace: 'docs' });
    await t.call('POST', '/remember', { content: 'read the [[handbook]] first', namespace: 'drafts' });
    const refs = async () =>
      JSON.stringify((await t.call('POST', '/doc/mem-refs', { slug: 'handbook', namespace: 'docs' })).body);
    expect(await refs()).not.toContain('read the [[handbook]] first');
    expect((await t.call('POST', '/namespaces/rename', { from: 'drafts', to: 'docs' })).body.moved).toBe(1);
    expect(await refs()).toContain('read the [[handbook]] first');
    await t.close();
  });

  it('streams the export by id and resumes after a given id', async () => {
    const { t } = await seeded();
    const all = (await t.call('GET', '/export')).body as { id: string }[];
    const ids = all.map((m) => m.id);
    expect(ids).toEqual([...ids].sort());
    const rest = (await t.call('GET', `/export?after=${ids[0]}`)).body as { id: string }[];
    expect(rest.map((m) => m.id)).toEqual(ids.slice(1));
    expect((await t.call('GET', '/export?after=nope')).status).toBe(400);
    await t.close();
  });
});

describe('verify and repair', () => {
  it('reports rows against indexed vectors and rebuilds the index from stored embeddings', async () => {
    const { t, a1 } = await seeded();
    const clean = (await t.call('POST', '/verify')).body;
    expect(clean).toMatchObject({ rows: 3, embedded_rows: 3, vectors: 3, missing_from_index: 0, mismatch: false });
    // Lose a vector from the derived index, as a crash between commit and index update would.
    inProcessCatalog(t.app.memoryStore.index).remove(a1);
    expect((await t.call('POST', '/verify')).body).toMatchObject({ vectors: 2, missing_from_index: 1, mismatch: true });
    const repaired = (await t.call('POST', '/repair')).body;
    expect(repaired).toMatchObject({
      repaired: true,
      vectors: 3,
      before: { mismatch: true },
      after: { mismatch: false },
    });
    expect((await t.call('POST', '/recall', { query: 'alpha one about builds', strategy: 'vector' })).body[0].id).toBe(
      a1,
    );
  });
});

describe('introspection', () => {
  it('lists every route with tier and types, and serves the agent guide', async () => {
    t = await openTestApp();
    const routes = (await t.call('GET', '/routes')).body as { method: string; path: string }[];
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    for (const key of [
      'POST /remember',
      'POST /recall',
      'DELETE /forget',
      'GET /health',
      'POST /import',
      'GET /guide',
      'POST /namespaces/delete',
    ]) {
      expect(keys).toContain(key);
    }
    const guide = (await t.call('GET', '/guide')).body;
    expect(guide.prompt).toMatch(/POST \/recall/);
    expect(guide.tools.map((x: { name: string }) => x.name)).toContain('remember');
  });
});

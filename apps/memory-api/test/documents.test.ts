import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { mentionedSlugs } from '../src/documents/slugs.ts';
import { openTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ env: { LINK_THRESHOLD: '0.5' } });
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>) => t.call('POST', '/doc/create', body);
const slugs = (rows: { slug: string }[]) => rows.map((r) => r.slug);

describe('documents: create, get, list, tree', () => {
  it('creates by slug (unique per namespace) and gets by slug or id', async () => {
    const res = await create({ slug: 'guides', title: 'Guides', content: 'All our guides', tags: ['docs'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      slug: 'guides',
      namespace: 'default',
      title: 'Guides',
      parent: null,
      sort_order: 0,
    });
    expect((await create({ slug: 'guides', content: 'again' })).status).toBe(409);
    // The same slug in another namespace is another document.
    expect((await create({ slug: 'guides', content: 'theirs', namespace: 'other' })).status).toBe(201);
    const bySlug = await t.call('POST', '/doc/get', { slug: 'guides' });
    expect(bySlug.body).toMatchObject({ id: res.body.id, content: 'All our guides' });
    expect((await t.call('POST', '/doc/get', { id: res.body.id })).body.slug).toBe('guides');
    expect((await t.call('POST', '/doc/get', { slug: 'missing' })).status).toBe(404);
    for (const body of [
      { slug: 'bad slug', content: 'x' },
      { slug: 'ok', content: '' },
      { slug: 'ok', content: 'x', parent: 7 },
    ]) {
      expect((await create(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.call('POST', '/doc/get', {})).status).toBe(400);
  });

  it('keeps a tree: parent, sort order, roots_only, and refuses cycles', async () => {
    await create({ slug: 'setup', content: 'How to set up', parent: 'guides', sort_order: 2 });
    await create({ slug: 'deploy', content: 'How to deploy', parent: 'guides', sort_order: 1 });
    await create({ slug: 'deploy/rollback', content: 'How to roll back', parent: 'deploy' });
    const children = (await t.call('POST', '/doc/list', { namespace: 'default', parent: 'guides' })).body;
    expect(slugs(children)).toEqual(['deploy', 'setup']);
    expect(children[0].content).toBeUndefined();
    expect(slugs((await t.call('POST', '/doc/list', { namespace: 'default', roots_only: true })).body)).toEqual([
      'guides',
    ]);
    const cycle = await t.call('POST', '/doc/move', { slug: 'guides', new_parent: 'deploy/rollback' });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error).toContain('cycle');
    expect((await t.call('POST', '/doc/update', { slug: 'deploy', parent: 'deploy' })).status).toBe(400);
    const moved = await t.call('POST', '/doc/move', { slug: 'setup', new_parent: null, new_sort_order: 5 });
    expect(moved.body).toMatchObject({ parent: null, sort_order: 5 });
    expect((await t.call('POST', '/doc/move', { slug: 'setup', new_parent: 'nowhere' })).status).toBe(404);
    // A parent must be in the child's namespace.
    expect((await create({ slug: 'x', content: 'x', parent: 'guides', namespace: 'third' })).status).toBe(404);
  });

  it('updates content (re-embedded), title and tags', async () => {
    const before = (await t.call('POST', '/doc/search', { query: 'kubernetes helm charts', mode: 'semantic' })).body;
    expect(slugs(before)).not.toContain('setup');
    const res = await t.call('POST', '/doc/update', {
      slug: 'setup',
      content: 'Kubernetes helm charts install the service',
      title: 'Setup',
      tags: ['k8s'],
    });
    expect(res.body).toMatchObject({
      title: 'Setup',
      tags: ['k8s'],
      content: 'Kubernetes helm charts install the service',
    });
    const after = (await t.call('POST', '/doc/search', { query: 'kubernetes helm charts', mode: 'semantic' })).body;
    expect(after[0].slug).toBe('setup');
    expect((await t.call('POST', '/doc/update', { slug: 'setup', content: 7 })).status).toBe(400);
  });

  it('deletes by slug or id; children become roots', async () => {
    const res = await t.call('DELETE', '/doc/delete?slug=deploy');
    expect(res.body).toMatchObject({ deleted: true, slug: 'deploy', reparented_children: 1 });
    expect((await t.call('POST', '/doc/get', { slug: 'deploy/rollback' })).body.parent).toBeNull();
    const byBody = await t.call('DELETE', '/doc/delete', { slug: 'deploy/rollback' });
    expect(byBody.status).toBe(200);
    expect((await t.call('DELETE', '/doc/delete?slug=deploy')).status).toBe(404);
  });
});

describe('documents: search', () => {
  beforeAll(async () => {
    await create({
      slug: 'billing',
      title: 'Billing',
      content: 'Invoices are sent on the first of the month',
      namespace: 's',
    });
    await create({
      slug: 'oncall',
      title: 'On call',
      content: 'The pager rotates weekly between engineers',
      namespace: 's',
    });
  });

  it('finds by full text, meaning and both (hybrid is the default); rejects an unknown mode', async () => {
    for (const mode of ['fts', 'semantic', 'hybrid', undefined]) {
      const res = await t.call('POST', '/doc/search', {
        query: 'invoices month',
        namespace: 's',
        ...(mode ? { mode } : {}),
      });
      expect(res.status).toBe(200);
      expect(res.body[0].slug, String(mode)).toBe('billing');
      expect(res.body[0].score).toBeGreaterThan(0);
      expect(res.body[0].score).toBeLessThanOrEqual(1);
    }
    expect((await t.call('POST', '/doc/search', { query: 'invoices', mode: 'fuzzy' })).status).toBe(400);
    expect((await t.call('POST', '/doc/search', { query: '  ' })).status).toBe(400);
  });

  it('isolates namespaces both ways', async () => {
    await create({ slug: 'plan', content: 'Tenant A secret roadmap', namespace: 'tenant-a' });
    await create({ slug: 'plan', content: 'Tenant B secret roadmap', namespace: 'tenant-b' });
    for (const [mine, theirs] of [
      ['tenant-a', 'tenant-b'],
      ['tenant-b', 'tenant-a'],
    ] as const) {
      for (const mode of ['fts', 'semantic', 'hybrid']) {
        const found = (await t.call('POST', '/doc/search', { query: 'secret roadmap', namespace: mine, mode })).body;
        expect(found.map((d: { namespace: string }) => d.namespace)).toEqual([mine]);
      }
      expect((await t.call('POST', '/doc/get', { slug: 'plan', namespace: mine })).body.content).toContain(
        mine === 'tenant-a' ? 'Tenant A' : 'Tenant B',
      );
      const listed = (await t.call('POST', '/doc/list', { namespace: mine })).body;
      expect(listed.every((d: { namespace: string }) => d.namespace !== theirs)).toBe(true);
      const recalled = (
        await t.call('POST', '/recall', { query: 'secret roadmap', namespace: mine, search_type: 'doc' })
      ).body;
      expect(recalled.map((d: { namespace: string }) => d.namespace)).toEqual([mine]);
    }
  });
});

describe('documents: references from memories', () => {
  it('parses [[slug]] and doc:slug mentions', () => {
    expect(mentionedSlugs('see [[runbook]] and doc:faq. Not mydoc:x, but doc:a/b-c.')).toEqual([
      'a/b-c',
      'faq',
      'runbook',
    ]);
  });

  it('links a memory to documents it mentions, at write time and when the document comes later', async () => {
    await create({
      slug: 'runbook',
      title: 'Runbook',
      content: 'Restart the workers, then drain the queue',
      namespace: 'refs',
    });
    const early = await t.call('POST', '/remember', {
      content: 'Follow [[runbook]] during incidents',
      namespace: 'refs',
    });
    const later = await t.call('POST', '/remember', { content: 'Questions go to doc:faq first', namespace: 'refs' });
    const elsewhere = await t.call('POST', '/remember', {
      content: 'Other tenant reads [[runbook]]',
      namespace: 'nope',
    });
    await create({ slug: 'faq', content: 'Frequently asked questions', namespace: 'refs' });

    const refs = (await t.call('POST', '/memory/doc-refs', { id: early.body.id })).body;
    expect(slugs(refs.documents)).toEqual(['runbook']);
    expect(slugs((await t.call('POST', '/memory/doc-refs', { id: later.body.id })).body.documents)).toEqual(['faq']);
    expect((await t.call('POST', '/memory/doc-refs', { id: elsewhere.body.id })).body.documents).toEqual([]);
    const memRefs = (await t.call('POST', '/doc/mem-refs', { slug: 'runbook', namespace: 'refs' })).body;
    expect(memRefs.memories.map((m: { id: string }) => m.id)).toEqual([early.body.id]);

    // New content replaces the references; a deprecated memory drops out of mem-refs.
    await t.call('PUT', '/memory', { id: later.body.id, content: 'Questions go to [[runbook]] now' });
    expect(slugs((await t.call('POST', '/memory/doc-refs', { id: later.body.id })).body.documents)).toEqual([
      'runbook',
    ]);
    await t.call('DELETE', `/forget?id=${early.body.id}`);
    const live = (await t.call('POST', '/doc/mem-refs', { slug: 'runbook', namespace: 'refs' })).body.memories;
    expect(live.map((m: { id: string }) => m.id)).toEqual([later.body.id]);
    expect((await t.call('POST', '/memory/doc-refs', { id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });

  it('recall: doc and all include documents; enrich links both ways; memory stays memory-only', async () => {
    const docOnly = (
      await t.call('POST', '/recall', { query: 'restart workers drain queue', namespace: 'refs', search_type: 'doc' })
    ).body;
    expect(docOnly[0]).toMatchObject({ kind: 'document', slug: 'runbook', title: 'Runbook' });
    const mem = await t.call('POST', '/remember', {
      content: 'Workers restart nightly, drain queue before',
      namespace: 'refs',
    });
    const all = (
      await t.call('POST', '/recall', { query: 'restart workers drain queue', namespace: 'refs', enrich: true })
    ).body;
    const kinds = new Set(all.map((r: { kind?: string }) => r.kind ?? 'memory'));
    expect(kinds).toEqual(new Set(['memory', 'document']));
    const doc = all.find((r: { kind?: string }) => r.kind === 'document');
    expect(doc.linked_memory_ids.length).toBeGreaterThan(0);
    const plain = all.find((r: { id: string }) => r.id === mem.body.id);
    expect(plain.linked_doc_slugs).toEqual([]);
    const memOnly = (
      await t.call('POST', '/recall', {
        query: 'restart workers drain queue',
        namespace: 'refs',
        search_type: 'memory',
      })
    ).body;
    expect(memOnly.every((r: { kind?: string }) => r.kind === undefined)).toBe(true);
    expect(memOnly.length).toBeGreaterThan(0);
    // Documents carry no category: a category filter leaves them out.
    expect((await t.call('POST', '/recall', { query: 'runbook', search_type: 'doc', category: 'x' })).body).toEqual([]);
  });

  it('enrich gives a memory result the slugs it references', async () => {
    const m = await t.call('POST', '/remember', { content: 'Escalation path lives in doc:runbook', namespace: 'refs' });
    const res = (
      await t.call('POST', '/recall', {
        query: 'escalation path',
        namespace: 'refs',
        enrich: true,
        search_type: 'memory',
      })
    ).body;
    expect(res.find((r: { id: string }) => r.id === m.body.id).linked_doc_slugs).toEqual(['runbook']);
  });
});

describe.skipIf(missing('postgres'))('documents on Postgres', () => {
  let pg: TestApp;
  beforeAll(async () => {
    pg = await openTestApp({ database: 'postgres' });
  });
  afterAll(() => pg?.close());

  it('creates, searches, links mentions and refuses cycles', async () => {
    expect((await pg.call('POST', '/doc/create', { slug: 'a', content: 'Alpha document about queues' })).status).toBe(
      201,
    );
    await pg.call('POST', '/doc/create', { slug: 'b', content: 'Beta', parent: 'a' });
    expect((await pg.call('POST', '/doc/move', { slug: 'a', new_parent: 'b' })).status).toBe(400);
    const m = await pg.call('POST', '/remember', { content: 'Read [[a]] about queues' });
    expect(
      (await pg.call('POST', '/memory/doc-refs', { id: m.body.id })).body.documents.map(
        (d: { slug: string }) => d.slug,
      ),
    ).toEqual(['a']);
    const found = (await pg.call('POST', '/doc/search', { query: 'queues', mode: 'fts' })).body;
    expect(found[0].slug).toBe('a');
  });
});

import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
import { openTestApp, type TestApp } from './helpers.ts';

const HASH_BOUNDS = { DUPLICATE_THRESHOLD: '0.95', LINK_THRESHOLD: '0.5', CONTRADICTION_THRESHOLD: '0.6' };
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ env: HASH_BOUNDS });
});
afterAll(() => t.close());

const remember = (app: TestApp, body: Record<string, unknown>) => app.call('POST', '/remember', body);
const sql = (app: TestApp, text: string, params: unknown[] = []) => app.app.memoryStore.db.sql.query(text, params);
const kinds = (events: { kind: string }[]) => events.map((e) => e.kind);

describe('GET /timeline', () => {
  it('answers the events of a memory in write order, with actor and evidence', async () => {
    const m = await remember(t, { content: 'The deploy window is Thursday afternoon', namespace: 'timeline' });
    await t.call('PUT', '/memory', { id: m.body.id, content: 'The deploy window is Friday morning' });
    await t.call('POST', '/memory/pin', { id: m.body.id, pinned: true });
    // Enough events for ids to pass 9 -> 10, where a text sort would put them out of order.
    for (let i = 0; i < 10; i++)
      await t.call('POST', '/memory/feedback', { id: m.body.id, feedback: i % 2 ? 'helpful' : 'unhelpful' });
    const res = await t.call('GET', `/timeline?id=${m.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(m.body.id);
    expect(res.body.truncated).toBe(false);
    expect(kinds(res.body.events)).toEqual(['created', 'updated', 'pinned', ...Array(10).fill('feedback')]);
    expect(res.body.events[0]).toMatchObject({
      actor: 'user',
      evidence: { content_hash: sha256('The deploy window is Thursday afternoon') },
    });
    expect(res.body.events[1]).toMatchObject({
      actor: 'api',
      evidence: { fields: ['content'], content_hash: sha256('The deploy window is Friday morning') },
    });
    const ids = res.body.events.map((e: { id: string }) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    expect(res.body.events[3].evidence).toEqual({ feedback: 'unhelpful' });

    const cut = await t.call('GET', `/timeline?id=${m.body.id}&limit=2`);
    expect(kinds(cut.body.events)).toEqual(['created', 'updated']);
    expect(cut.body.truncated).toBe(true);
  });

  it('answers 404 for an unknown id and 400 for a malformed id or limit', async () => {
    expect((await t.call('GET', `/timeline?id=${randomUUID()}`)).status).toBe(404);
    const bad = await t.call('GET', '/timeline?id=12');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('UUID');
    expect((await t.call('GET', '/timeline')).status).toBe(400);
    const m = await remember(t, { content: 'limits are checked too', namespace: 'timeline' });
    expect((await t.call('GET', `/timeline?id=${m.body.id}&limit=0`)).status).toBe(400);
    expect((await t.call('GET', `/timeline?id=${m.body.id}&limit=10001`)).status).toBe(400);
  });
});

describe('GET /provenance', () => {
  it('reports author, source, hashes and the event chain of an untouched memory', async () => {
    const content = 'Invoices are archived for seven years';
    const m = await remember(t, { content, source: 'finance-handbook.pdf', namespace: 'prov' });
    const res = await t.call('GET', `/provenance?id=${m.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: m.body.id,
      namespace: 'prov',
      status: 'active',
      source: 'finance-handbook.pdf',
      source_type: 'user',
      author_type: null,
      trust_tier: 'high',
      content_hash: sha256(content),
      created_hash: sha256(content),
      last_recorded_hash: sha256(content),
      current_hash: sha256(content),
      hash_matches: true,
      chain_matches: true,
      tampered: false,
      events_truncated: false,
    });
    expect(res.body.events).toEqual([
      expect.objectContaining({
        kind: 'created',
        actor: 'user',
        evidence: expect.objectContaining({ content_hash: sha256(content) }),
      }),
    ]);
  });

  it('keeps the first hash after an edit through the API, which is not tampering', async () => {
    const m = await remember(t, { content: 'The office wifi is called Meadow', namespace: 'prov' });
    await t.call('PUT', '/memory', { id: m.body.id, content: 'The office wifi is called Harbour' });
    const res = await t.call('GET', `/provenance?id=${m.body.id}`);
    expect(res.body).toMatchObject({
      created_hash: sha256('The office wifi is called Meadow'),
      content_hash: sha256('The office wifi is called Harbour'),
      last_recorded_hash: sha256('The office wifi is called Harbour'),
      current_hash: sha256('The office wifi is called Harbour'),
      hash_matches: true,
      chain_matches: true,
      tampered: false,
    });
    expect(kinds(res.body.events)).toEqual(['created', 'updated']);
  });

  it('shows tampering when the content changes behind the API, even with its hash column rewritten', async () => {
    const m = await remember(t, { content: 'The vault code is 4711', namespace: 'prov' });
    await sql(t, `UPDATE memories SET content = 'The vault code is 0000' WHERE id = $1::uuid`, [m.body.id]);
    const changed = await t.call('GET', `/provenance?id=${m.body.id}`);
    expect(changed.body).toMatchObject({
      content_hash: sha256('The vault code is 4711'),
      current_hash: sha256('The vault code is 0000'),
      hash_matches: false,
      tampered: true,
      trust_tier: 'untrusted',
    });
    // Rewriting the hash column to match hides nothing: the event chain still records the old hash.
    await sql(t, `UPDATE memories SET content_hash = $2 WHERE id = $1::uuid`, [
      m.body.id,
      sha256('The vault code is 0000'),
    ]);
    const covered = await t.call('GET', `/provenance?id=${m.body.id}`);
    expect(covered.body).toMatchObject({
      hash_matches: true,
      chain_matches: false,
      last_recorded_hash: sha256('The vault code is 4711'),
      tampered: true,
      trust_tier: 'untrusted',
    });
    // Putting the content back restores the match.
    await sql(t, `UPDATE memories SET content = 'The vault code is 4711', content_hash = $2 WHERE id = $1::uuid`, [
      m.body.id,
      sha256('The vault code is 4711'),
    ]);
    expect((await t.call('GET', `/provenance?id=${m.body.id}`)).body.tampered).toBe(false);
  });

  it('derives the trust tier from source_type, author_type and feedback', async () => {
    const tier = async (body: Record<string, unknown>, feedback: ('helpful' | 'unhelpful')[] = []) => {
      const m = await remember(t, { namespace: 'trust', ...body });
      for (const f of feedback) await t.call('POST', '/memory/feedback', { id: m.body.id, feedback: f });
      const res = await t.call('GET', `/provenance?id=${m.body.id}`);
      return { tier: res.body.trust_tier, reasons: res.body.trust_reasons.join('; ') };
    };
    expect((await tier({ content: 'typed in by a person' })).tier).toBe('high');
    expect((await tier({ content: 'written by an agent', author_type: 'agent' })).tier).toBe('low');
    expect((await tier({ content: 'made by a model', source_type: 'llm' })).tier).toBe('low');
    expect((await tier({ content: 'came from a file', source_type: 'import' })).tier).toBe('medium');
    const raised = await tier({ content: 'agent note found useful', author_type: 'agent' }, [
      'helpful',
      'helpful',
      'helpful',
    ]);
    expect(raised.tier).toBe('medium');
    expect(raised.reasons).toContain('raised by feedback');
    const lowered = await tier({ content: 'person note found wrong' }, ['unhelpful', 'unhelpful']);
    expect(lowered).toMatchObject({ tier: 'medium', reasons: expect.stringContaining('lowered by feedback') });
    expect((await tier({ content: 'one complaint only' }, ['unhelpful'])).tier).toBe('high');
  });

  it('carries the supersession and its undo in the event chain', async () => {
    const old = await remember(t, { content: 'Lunch is served at noon in the atrium', namespace: 'prov-undo' });
    const next = await remember(t, {
      content: 'Lunch is served at one in the atrium',
      namespace: 'prov-undo',
      detect_contradiction: true,
    });
    expect(next.body.superseded.id).toBe(old.body.id);
    await t.call('POST', '/contradictions/undo', { id: old.body.id });
    const res = await t.call('GET', `/provenance?id=${old.body.id}`);
    expect(res.body.status).toBe('active');
    expect(res.body.events.map((e: { kind: string; actor: string }) => `${e.kind}/${e.actor}`)).toEqual([
      'created/user',
      'superseded/user',
      'supersession_undone/api',
    ]);
    expect(res.body.events[1].evidence).toMatchObject({ by: next.body.id });
    expect(res.body.tampered).toBe(false);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const missing = await t.call('GET', `/provenance?id=${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toContain('no memory');
    expect((await t.call('GET', '/provenance?id=not-an-id')).status).toBe(400);
    expect((await t.call('GET', '/provenance')).status).toBe(400);
  });
});

describe.skipIf(missing('postgres'))('provenance on Postgres', () => {
  let pg: TestApp;
  beforeAll(async () => {
    pg = await openTestApp({ database: 'postgres', env: HASH_BOUNDS });
  });
  afterAll(() => pg?.close());

  it('orders the timeline and detects a direct SQL change of content', async () => {
    const m = await remember(pg, { content: 'Badge photos are retaken every five years', author_type: 'agent' });
    for (let i = 0; i < 10; i++) await pg.call('POST', '/memory/importance', { id: m.body.id, importance: i / 10 });
    const timeline = await pg.call('GET', `/timeline?id=${m.body.id}`);
    expect(kinds(timeline.body.events)).toEqual(['created', ...Array(10).fill('importance_set')]);
    expect(timeline.body.events.at(-1).evidence).toEqual({ importance: 0.9 });

    const clean = await pg.call('GET', `/provenance?id=${m.body.id}`);
    expect(clean.body).toMatchObject({ trust_tier: 'low', tampered: false, events: expect.any(Array) });
    await sql(pg, `UPDATE memories SET content = content || '!' WHERE id = $1::uuid`, [m.body.id]);
    const tampered = await pg.call('GET', `/provenance?id=${m.body.id}`);
    expect(tampered.body).toMatchObject({
      hash_matches: false,
      tampered: true,
      trust_tier: 'untrusted',
      current_hash: sha256('Badge photos are retaken every five years!'),
    });
  });
});

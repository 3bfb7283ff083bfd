import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
const ids: string[] = [];
beforeAll(async () => {
  t = await openTestApp();
  for (let i = 0; i < 7; i++) {
    const res = await t.call('POST', '/remember', {
      content: `note number ${i} about ${i % 2 ? 'postgres vacuum' : 'redis eviction'} settings`,
      namespace: i < 5 ? 'lists' : 'other',
      tags: i % 2 ? ['db'] : ['cache'],
    });
    ids.push(res.body.id);
  }
});
afterAll(() => t.close());

describe('POST /search', () => {
  it('matches all keywords on content and tags, within a namespace, deprecated excluded', async () => {
    const res = await t.call('POST', '/search', { query: 'postgres vacuum', namespace: 'lists' });
    expect(res.status).toBe(200);
    expect(res.body.map((r: { id: string }) => r.id).sort()).toEqual([ids[1], ids[3]].sort());
    const byTag = await t.call('POST', '/search', { query: 'cache', tags: ['cache'] });
    expect(byTag.body).toHaveLength(4);
    const other = await t.call('POST', '/search', { query: 'postgres vacuum', namespace: 'other' });
    expect(other.body.map((r: { id: string }) => r.id)).toEqual([ids[5]]);
    await t.call('DELETE', `/forget?id=${ids[3]}`);
    const after = await t.call('POST', '/search', { query: 'postgres vacuum', namespace: 'lists' });
    expect(after.body.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    expect((await t.call('POST', '/search', {})).status).toBe(400);
  });
});

describe('POST /list and GET /recent', () => {
  it('lists newest first as a bare array, or an envelope with include_meta', async () => {
    const bare = await t.call('POST', '/list', { namespace: 'lists', limit: 2 });
    expect(bare.body.map((r: { id: string }) => r.id)).toEqual([ids[4], ids[2]]);
    const page1 = await t.call('POST', '/list', { namespace: 'lists', limit: 2, include_meta: true });
    expect(page1.body).toMatchObject({ total: 4, has_more: true, next_offset: 2 });
    const page2 = await t.call('POST', '/list', { namespace: 'lists', limit: 2, offset: 2, include_meta: true });
    expect(page2.body).toMatchObject({ total: 4, has_more: false, next_offset: null });
    expect(page2.body.memories.map((r: { id: string }) => r.id)).toEqual([ids[1], ids[0]]);
    const tagged = await t.call('POST', '/list', { tag: 'db' });
    expect(tagged.body.map((r: { id: string }) => r.id)).toEqual([ids[5], ids[1]]);
    expect((await t.call('POST', '/list', { limit: 5000 })).status).toBe(400);
    expect((await t.call('POST', '/list', { at: 'nope' })).status).toBe(400);
  });

  it('returns recent memories by namespace and limit', async () => {
    const res = await t.call('GET', '/recent?limit=2&namespace=other');
    expect(res.body.map((r: { id: string }) => r.id)).toEqual([ids[6], ids[5]]);
    expect((await t.call('GET', '/recent?limit=abc')).status).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, type Running, setUp, startErrorsApi } from './support/harness.ts';
import { startReceiver } from './support/receiver.ts';

let server: Running;
let api: Api;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const rule = (url: string, extra: object = {}) => ({
  name: 'errors',
  conditions: { level: 'error' },
  action_type: 'webhook',
  action_config: { url },
  ...extra,
});

beforeAll(async () => {
  receiver = await startReceiver([503]);
  server = await startErrorsApi({ WEBHOOK_ALLOWED_NETWORKS: 'loopback', WEBHOOK_TIMEOUT_MS: '1000' });
  api = (await setUp(server.url)).api;
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe('editing and testing an alert rule', () => {
  it('replaces every field with PUT, validating as create does, and changes nothing when refused', async () => {
    const created = (await api.call('POST', '/api/0/projects/default/rules', rule(`${receiver.url}/a`))).json;
    const put = await api.call(
      'PUT',
      `/api/0/rules/${created.id}`,
      rule(`${receiver.url}/b`, { cooldown_seconds: 5, enabled: false }),
    );
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({
      id: created.id,
      cooldown_seconds: 5,
      enabled: false,
      action_config: { url: `${receiver.url}/b` },
    });

    for (const bad of [
      rule('ftp://example.com/x'),
      rule(`${receiver.url}/c`, { conditions: { levle: 'error' } }),
      { name: 'no action' },
    ]) {
      const refused = await api.call('PUT', `/api/0/rules/${created.id}`, bad);
      expect(refused.status).toBe(400);
      expect(typeof refused.json.error).toBe('string');
    }
    const [stored] = (await api.call('GET', '/api/0/projects/default/rules')).json;
    expect(stored).toMatchObject({ cooldown_seconds: 5, action_config: { url: `${receiver.url}/b` } });
    expect(
      (await api.call('PUT', '/api/0/rules/00000000-0000-0000-0000-000000000000', rule(receiver.url))).status,
    ).toBe(404);
  });

  it('sends one test delivery and reports the answer, recording no alert', async () => {
    const [stored] = (await api.call('GET', '/api/0/projects/default/rules')).json;
    const failed = await api.call('POST', `/api/0/rules/${stored.id}/test`);
    expect(failed.json).toEqual({ ok: false, attempts: 1, status: 503 });
    const ok = await api.call('POST', `/api/0/rules/${stored.id}/test`);
    expect(ok.json).toEqual({ ok: true, attempts: 1, status: 200 });
    expect(receiver.received.map((r) => r.body.test)).toEqual([true, true]);
    expect((await api.call('GET', `/api/0/rules/${stored.id}/deliveries`)).json).toEqual([]);
  });
});

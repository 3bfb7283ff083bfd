import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './support/engines.ts';
import { envelope, errorEvent, newEventId } from './support/envelopes.ts';
import { type Api, eventually, type Running, setUp, startErrorsApi } from './support/harness.ts';
import { startReceiver } from './support/receiver.ts';

describe.each(ENGINES)('alert rules ($name)', (engine) => {
  let server: Running;
  let api: Api;
  let dsn: URL;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let drop: () => Promise<void>;

  async function ingest(message: string, level = 'error') {
    const res = await fetch(`${server.url}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`, {
      method: 'POST',
      body: envelope({ event_id: newEventId(), message, level }),
    });
    expect(res.status).toBe(200);
    // Rules run after the answer; wait for them so each test sees its own deliveries.
    await server.app.errors.alerts.idle();
  }

  const rule = (name: string, conditions: object, extra: object = {}) => ({
    name,
    conditions,
    action_type: 'webhook',
    action_config: { url: `${receiver.url}/${name}` },
    ...extra,
  });

  const callsTo = (name: string) => receiver.received.filter((r) => r.path === `/${name}`);

  beforeAll(async () => {
    const db = await engine.env();
    drop = db.drop;
    receiver = await startReceiver();
    server = await startErrorsApi({
      ...db.env,
      WEBHOOK_ALLOWED_NETWORKS: 'loopback',
      WEBHOOK_RETRY_DELAY_MS: '20',
      WEBHOOK_TIMEOUT_MS: '300',
    });
    const setup = await setUp(server.url);
    api = setup.api;
    dsn = new URL(setup.dsn);
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
    await drop();
  });

  it('creates, lists, toggles and deletes rules, validating conditions and actions', async () => {
    const created = await api.call(
      'POST',
      '/api/0/projects/default/rules',
      rule('crud', { level: ['error', 'fatal'] }),
    );
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: 'crud',
      project: 'default',
      conditions: { level: ['error', 'fatal'] },
      action_type: 'webhook',
      action_config: { url: `${receiver.url}/crud` },
      cooldown_seconds: 300,
      enabled: true,
    });
    const { id } = created.json;
    expect((await api.call('GET', '/api/0/projects/default/rules')).json.map((r: { id: string }) => r.id)).toEqual([
      id,
    ]);
    expect((await api.call('POST', `/api/0/rules/${id}/toggle`)).json.enabled).toBe(false);
    expect((await api.call('POST', `/api/0/rules/${id}/toggle`)).json.enabled).toBe(true);
    expect((await api.call('DELETE', `/api/0/rules/${id}`)).status).toBe(204);
    expect((await api.call('DELETE', `/api/0/rules/${id}`)).status).toBe(404);
    expect((await api.call('GET', '/api/0/projects/default/rules')).json).toEqual([]);

    const invalid: [object, RegExp][] = [
      [rule('x', { colour: 'red' }), /conditions/],
      [rule('x', { level: 'loud' }), /level/],
      [rule('x', { min_count: 0 }), /min_count/],
      [{ ...rule('x', {}), action_type: 'email' }, /action_type/],
      [{ ...rule('x', {}), action_config: { url: 'ftp://example.com/x' } }, /http/],
      [{ ...rule('x', {}), action_config: {} }, /url/],
    ];
    // Slips are answered with what is allowed and the nearest match.
    invalid.push(
      [
        rule('x', { levle: 'error' }),
        /condition "levle" is not allowed\. Did you mean "level"\? Allowed: level, min_count, title_contains, new_issue/,
      ],
      [
        rule('x', { level: 'eror' }),
        /level "eror" is not allowed\. Did you mean "error"\? Allowed: fatal, error, warning, info, debug/,
      ],
      [rule('x', { level: ['fatal', 'warnign'] }), /Did you mean "warning"/],
      [{ ...rule('x', {}), action_type: 'slack' }, /action type "slack" is not allowed\. Allowed: webhook$/],
      [{ ...rule('x', {}), cooldown: 5 }, /field "cooldown" is not allowed\. Did you mean "cooldown_seconds"\?/],
    );
    for (const [body, message] of invalid) {
      const res = await api.call('POST', '/api/0/projects/default/rules', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toMatch(message);
    }
  });

  it('posts the issue to the webhook when level, count and title conditions match', async () => {
    await api.call('POST', '/api/0/projects/default/rules', rule('fatal-only', { level: 'fatal' }));
    await api.call(
      'POST',
      '/api/0/projects/default/rules',
      rule('third-time', { min_count: 3, title_contains: 'PAYMENT' }),
    );
    await ingest('payment gateway down', 'error');
    await ingest('payment gateway down', 'error');
    expect(callsTo('third-time')).toHaveLength(0);
    await ingest('payment gateway down', 'error');
    const [call] = callsTo('third-time');
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toMatchObject({
      type: 'alert',
      rule: { name: 'third-time' },
      project: 'default',
      issue: { title: 'payment gateway down', count: 3, level: 'error', status: 'unresolved' },
    });
    expect(callsTo('fatal-only')).toHaveLength(0);
    await ingest('kernel panic', 'fatal');
    expect(callsTo('fatal-only').map((c) => c.body.issue.title)).toEqual(['kernel panic']);
    expect(callsTo('fatal-only')[0]?.body.trigger).toBe('new_issue');
  });

  it('waits out the cooldown per issue, and stays quiet while disabled', async () => {
    const created = (
      await api.call('POST', '/api/0/projects/default/rules', rule('cooling', { title_contains: 'cool' }))
    ).json;
    await ingest('cool issue one');
    await ingest('cool issue one');
    await ingest('cool issue two');
    expect(callsTo('cooling').map((c) => c.body.issue.title)).toEqual(['cool issue one', 'cool issue two']);
    await api.call('POST', `/api/0/rules/${created.id}/toggle`);
    await ingest('cool issue three');
    expect(callsTo('cooling')).toHaveLength(2);
  });

  it('updates title, culprit and level from the latest event, and rules match the new title', async () => {
    await api.call('POST', '/api/0/projects/default/rules', rule('gateway', { title_contains: 'gateway' }));
    const send = async (value: string, level: string, fn: string) => {
      // One custom fingerprint: the two events are one issue whatever their stacks.
      const event = errorEvent(value, { level, fingerprint: ['payments'] });
      const frames = event.exception.values[0]?.stacktrace.frames ?? [];
      frames[1] = { ...frames[1], function: fn } as (typeof frames)[1];
      const res = await fetch(`${server.url}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`, {
        method: 'POST',
        body: envelope(event),
      });
      expect(res.status).toBe(200);
      await server.app.errors.alerts.idle();
    };
    await send('card 4242 declined', 'warning', 'charge');
    expect(callsTo('gateway')).toHaveLength(0);
    await send('payment gateway timed out after 30s', 'error', 'retry');
    const [call] = callsTo('gateway');
    expect(call?.body.issue).toMatchObject({
      title: 'TypeError: payment gateway timed out after 30s',
      culprit: 'handler in retry',
      level: 'error',
      count: 2,
    });
    const issue = (await api.call('GET', `/api/0/issues/${call?.body.issue.id}`)).json;
    expect(issue).toMatchObject({ title: 'TypeError: payment gateway timed out after 30s', level: 'error' });
  });

  it('retries failed and hanging calls and records the history', async () => {
    const flaky = await startReceiver([503, 0, 200]);
    try {
      const created = (
        await api.call('POST', '/api/0/projects/default/rules', {
          ...rule('flaky', { title_contains: 'flaky' }),
          action_config: { url: `${flaky.url}/hook` },
        })
      ).json;
      await ingest('flaky dependency');
      expect(flaky.received).toHaveLength(3);
      const history = await eventually(async () => {
        const rows = (await api.call('GET', `/api/0/rules/${created.id}/deliveries`)).json;
        return rows.length > 0 ? rows : undefined;
      }, 'delivery history');
      expect(history[0]).toMatchObject({ status: 'delivered', attempts: 3, response_status: 200 });
    } finally {
      await flaky.close();
    }
  });
});

describe('outbound address policy', () => {
  const rule = (name: string, conditions: object) => ({ name, conditions, action_type: 'webhook' });
  it('refuses loopback and private targets unless allowed', async () => {
    const strict = await startErrorsApi({ WEBHOOK_RETRY_DELAY_MS: '0' });
    const local = await startReceiver();
    try {
      const setup = await setUp(strict.url);
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://10.1.2.3/x',
        'http://[::1]/x',
        'http://169.254.169.254/latest',
      ]) {
        const res = await setup.api.call('POST', '/api/0/projects/default/rules', {
          ...rule('x', {}),
          action_config: { url },
        });
        expect(res.status, url).toBe(400);
        expect(res.json.error).toMatch(/not allowed/);
      }
      // A host name is checked on the address it resolves to, when the call is made.
      const port = new URL(local.url).port;
      const created = await setup.api.call('POST', '/api/0/projects/default/rules', {
        ...rule('named', {}),
        action_config: { url: `http://localhost:${port}/hook` },
      });
      expect(created.status).toBe(201);
      const key = new URL(setup.dsn);
      await fetch(`${strict.url}/api${key.pathname}/envelope/?sentry_key=${key.username}`, {
        method: 'POST',
        body: envelope({ event_id: newEventId(), message: 'anything' }),
      });
      await strict.app.errors.alerts.idle();
      expect(local.received).toHaveLength(0);
      const history = (await setup.api.call('GET', `/api/0/rules/${created.json.id}/deliveries`)).json;
      expect(history[0]).toMatchObject({ status: 'failed' });
      expect(history[0].error).toMatch(/loopback/);
    } finally {
      await strict.close();
      await local.close();
    }
  });
});

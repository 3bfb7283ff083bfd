import { randomUUID } from 'node:crypto';
import { createThrowawayDatabase } from '@trove/data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../../tests/support/processes.ts';
import { missing } from '../../../tests/support/requirements.ts';
import { envelope, newEventId } from './support/envelopes.ts';
import { type Api, eventually, setUp } from './support/harness.ts';
import { startReceiver } from './support/receiver.ts';

// Two errors-api processes on one Postgres and one Redis, as a cluster runs them: a rule changed
// through one replica holds on the other at once (its rule cache is dropped over pub/sub).
describe.skipIf(missing('postgres', 'redis'))('alert rules across two errors-api replicas', () => {
  let a: RunningApp;
  let b: RunningApp;
  let onA: Api;
  let dsn: URL;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await createThrowawayDatabase(process.env.TEST_DATABASE_URL as string, 'errors_replicas');
    drop = db.drop;
    receiver = await startReceiver();
    const env = {
      DATABASE_URL: db.url,
      MIGRATE_ON_START: 'apply',
      REDIS_URL: process.env.REDIS_URL as string,
      // Its own prefix: other test runs on the same Redis must not reach these replicas.
      REDIS_PREFIX: `test-${randomUUID()}:`,
      WEBHOOK_ALLOWED_NETWORKS: 'loopback',
    };
    a = await startApp('errors-api', env);
    b = await startApp('errors-api', env);
    const setup = await setUp(a.url);
    onA = setup.api;
    dsn = new URL(setup.dsn);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await receiver?.close();
    await drop?.();
  });

  async function ingestOn(replica: RunningApp, message: string): Promise<void> {
    const res = await fetch(`${replica.url}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`, {
      method: 'POST',
      body: envelope({ event_id: newEventId(), message, level: 'error' }),
    });
    expect(res.status).toBe(200);
  }

  const callsTo = (name: string) => receiver.received.filter((r) => r.path === `/${name}`);
  const titlesSentTo = (name: string) => callsTo(name).map((r) => r.body.issue.title as string);
  const createRule = async (name: string) => {
    const res = await onA.call('POST', '/api/0/projects/default/rules', {
      name,
      conditions: { title_contains: name },
      action_type: 'webhook',
      action_config: { url: `${receiver.url}/${name}` },
    });
    expect(res.status).toBe(201);
    return res.json.id as string;
  };

  it('a rule created on one replica fires for an issue ingested on the other at once', async () => {
    // B reads (and caches, for 30 s at most) the project's rules before the rule exists.
    await createRule('warmup');
    await ingestOn(b, 'warmup');
    await eventually(async () => (callsTo('warmup').length > 0 ? true : undefined), 'the warm-up alert from B');
    await createRule('watched');
    await ingestOn(b, 'watched after the rule');
    await eventually(async () => (callsTo('watched').length > 0 ? true : undefined), 'the alert from B');
    expect(titlesSentTo('watched')).toEqual(['watched after the rule']);
  });

  it('a rule disabled on one replica sends nothing from the other', async () => {
    const id = await createRule('disabled');
    await ingestOn(b, 'disabled while enabled');
    await eventually(async () => (callsTo('disabled').length > 0 ? true : undefined), 'the alert before disabling');
    expect((await onA.call('POST', `/api/0/rules/${id}/toggle`)).json.enabled).toBe(false);
    await ingestOn(b, 'disabled after disabling');
    // A marker rule's alert for a later issue on B shows that B has evaluated the earlier one.
    await createRule('marker');
    await ingestOn(b, 'marker after disabling');
    await eventually(async () => (callsTo('marker').length > 0 ? true : undefined), 'the marker alert');
    expect(titlesSentTo('disabled')).toEqual(['disabled while enabled']);
  });
});

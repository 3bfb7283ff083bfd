import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../../../tests/support/processes.ts';
import { ADMIN, type Api, client, setUp } from './support/harness.ts';
import { sentryClient } from './support/sentry.ts';

const MESSAGES = ['disk full on node 1', 'queue stalled', 'cache timeout', 'token expired', 'upstream 502'];

async function storedEventIds(api: Api): Promise<{ ids: Set<string>; counts: Map<string, number> }> {
  const ids = new Set<string>();
  const counts = new Map<string, number>();
  const issues = (await api.call('GET', '/api/0/projects/default/issues?per_page=100')).json;
  for (const issue of issues.data) {
    counts.set(issue.title, issue.count);
    for (let page = 1; ; page++) {
      const events = (await api.call('GET', `/api/0/issues/${issue.id}/events?per_page=100&page=${page}`)).json;
      for (const e of events.data) ids.add(e.event_id);
      if (events.data.length < 100) break;
    }
  }
  return { ids, counts };
}

describe('durability', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'errors-durable-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  // A bound for correctness, not speed: two process starts and 150+ events on a busy machine.
  it('keeps every event answered with 200 when the server is killed mid-stream', async () => {
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'error' };
    const first = await startApp('errors-api', env);
    let sdk: ReturnType<typeof sentryClient>;
    let sent = 0;
    let inFlightAtKill = 0;
    try {
      const { dsn } = await setUp(first.url);
      sdk = sentryClient(dsn);
      // Events keep going out while the server is killed: about 20 are in flight at any moment,
      // so some have their 200 and some never get an answer. Bounded by time, not by speed.
      const ok = () => sdk.responses.filter((r) => r.statusCode === 200).length;
      const deadline = Date.now() + 40_000;
      // Responses come back in bursts (the server writes events arriving together as one batch),
      // so reaching 150 can coincide with nothing left outstanding: keep going until some are.
      const outstanding = () => sent - sdk.responses.length;
      while ((ok() < 150 || outstanding() === 0) && Date.now() < deadline) {
        if (outstanding() < 20) {
          sdk.scope.captureMessage(MESSAGES[sent % MESSAGES.length] as string, 'error');
          sent++;
        } else {
          await new Promise((r) => setTimeout(r, 1));
        }
      }
      // Counted at the kill itself: answers already on their way may still arrive after it.
      inFlightAtKill = outstanding();
      first.child.kill('SIGKILL');
      expect((await first.exit).signal).toBe('SIGKILL');
      await sdk.flush();
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
    }
    const acknowledged = sdk.responses.filter((r) => r.statusCode === 200).map((r) => r.eventId as string);
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);
    // The kill really came mid-stream: some events were out without their answer yet.
    expect(inFlightAtKill).toBeGreaterThan(0);

    const second = await startApp('errors-api', env);
    try {
      const api = client(second.url);
      expect(
        (await api.call('POST', '/api/0/auth/login', { email: ADMIN.email, password: ADMIN.password })).status,
      ).toBe(200);
      const { ids, counts } = await storedEventIds(api);
      const lost = acknowledged.filter((id) => !ids.has(id));
      expect(lost).toEqual([]);
      // Grouped as before: one issue per message, and counts that agree with the stored events.
      expect([...counts.keys()].sort()).toEqual([...MESSAGES].sort());
      expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(ids.size);
    } finally {
      await second.stop();
    }
  }, 120_000);
});

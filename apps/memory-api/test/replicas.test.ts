import { createThrowawayDatabase, type ThrowawayDatabase } from '@trove/data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../../tests/support/processes.ts';
import { missing } from '../../../tests/support/requirements.ts';
import { postgresUrl } from './helpers.ts';

/**
 * Two memory-api processes on one Postgres, as a cluster runs them behind a load balancer. Every
 * check reads through the replica that did not take the write.
 */

const STRATEGIES = ['fusion', 'vector', 'fts5', 'hybrid', 'graph'] as const;
// biome-ignore lint/suspicious/noExplicitAny: response bodies are free-form JSON that tests index into
type Json = any;

const running: RunningApp[] = [];
let throwaway: ThrowawayDatabase | undefined;
let a: RunningApp;
let b: RunningApp;

async function call(
  app: RunningApp,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

const recallIds = async (app: RunningApp, query: string, namespace: string, strategy: string) => {
  const res = await call(app, 'POST', '/recall', { query, namespace, strategy, limit: 20 });
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((r) => r.id);
};

/**
 * Polls until `check` holds; true if it did within `ms`. The deadline is generous for a loaded
 * machine: how fast a write becomes visible is measured by bench:replicas, not asserted here.
 */
async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function replicaEnv(url: string, migrate: 'apply' | 'verify'): Record<string, string> {
  return {
    DATABASE_URL: url,
    MIGRATE_ON_START: migrate,
    EMBEDDER: 'hash',
    // Hashed words are coarse: "9:30" against "10:00" in an otherwise equal sentence is 0.76.
    CONTRADICTION_THRESHOLD: '0.6',
    REDIS_URL: '',
    LOG_FORMAT: 'json',
  };
}

async function startReplica(migrate: 'apply' | 'verify'): Promise<RunningApp> {
  const app = await startApp('memory-api', replicaEnv((throwaway as ThrowawayDatabase).url, migrate));
  running.push(app);
  return app;
}

describe.skipIf(missing('postgres'))('two memory-api replicas on one Postgres', () => {
  beforeAll(async () => {
    throwaway = await createThrowawayDatabase(postgresUrl as string, 'replicas');
    a = await startReplica('apply');
    b = await startReplica('verify');
  }, 180_000);

  afterAll(async () => {
    for (const app of running) if (app.child.exitCode === null) app.child.kill('SIGKILL');
    await Promise.all(running.map((app) => app.exit));
    await throwaway?.drop();
  });

  it('a memory remembered on one is recalled on the other by every strategy', async () => {
    const made = await call(a, 'POST', '/remember', {
      content: 'The payments deploy window opens Thursday at fourteen hundred',
      namespace: 'replicas-recall',
    });
    expect(made.status).toBe(201);
    for (const strategy of STRATEGIES) {
      const seen = await eventually(async () =>
        (await recallIds(b, 'payments deploy window Thursday', 'replicas-recall', strategy)).includes(made.body.id),
      );
      expect(seen, strategy).toBe(true);
    }
  });

  it('a memory forgotten on one is gone from the other at once, and /verify compares status', async () => {
    const made = await call(a, 'POST', '/remember', {
      content: 'Staging database backups run nightly at three',
      namespace: 'replicas-forget',
    });
    const query = 'staging database backups nightly';
    expect(
      await eventually(async () => (await recallIds(b, query, 'replicas-forget', 'vector')).includes(made.body.id)),
    ).toBe(true);
    expect((await call(b, 'DELETE', `/forget?id=${made.body.id}`)).status).toBe(200);
    // No waiting: whatever A's index still holds, the rows it reads say the memory is gone.
    for (const strategy of STRATEGIES) {
      expect(await recallIds(a, query, 'replicas-forget', strategy), strategy).not.toContain(made.body.id);
    }
    expect(await eventually(async () => (await call(a, 'POST', '/verify')).body.mismatch === false)).toBe(true);
    const report = (await call(a, 'POST', '/verify')).body;
    expect(report).toMatchObject({ status_mismatches: 0, vector_mismatches: 0, missing_from_index: 0 });
  });

  it('an update on one: the other finds the new text and never the old', async () => {
    const made = await call(a, 'POST', '/remember', {
      content: 'Grafana dashboards live in folder Observability',
      namespace: 'replicas-update',
    });
    // Alone in its namespace the memory is every query's nearest, and scores are scaled to the best:
    // the arms' raw signals tell a match by its old text (most of the query's words) from one by
    // its new text (none of them; cosine about 0.06 under this embedder).
    const oldText = async (app: RunningApp, strategy: string) => {
      const query = 'Grafana dashboards folder Observability';
      const res = await call(app, 'POST', '/recall', { query, namespace: 'replicas-update', strategy, explain: true });
      return (res.body as { id: string; explain: { arms: Record<string, { signal: number }> } }[])
        .filter((r) => Object.values(r.explain.arms).some((arm) => arm.signal >= 0.4))
        .map((r) => r.id);
    };
    expect(await eventually(async () => (await oldText(b, 'vector')).includes(made.body.id))).toBe(true);
    const changed = await call(a, 'PUT', '/memory', {
      id: made.body.id,
      content: 'Kibana saved searches live in space Logs',
    });
    expect(changed.status).toBe(200);
    // The old vector may still be in B's index for a moment; the content hash of the row rules it out.
    expect(await oldText(b, 'vector')).not.toContain(made.body.id);
    expect(
      await eventually(
        async () => (await recallIds(b, 'Kibana saved searches', 'replicas-update', 'vector'))[0] === made.body.id,
      ),
    ).toBe(true);
    for (const strategy of STRATEGIES) {
      expect(await oldText(b, strategy), strategy).not.toContain(made.body.id);
    }
  });

  it('near-duplicate and contradiction decisions on the other replica match the writing one', async () => {
    const first = await call(a, 'POST', '/remember', {
      content: 'Invoices are sent on the first Monday of each month',
      namespace: 'replicas-dup',
    });
    expect(first.status).toBe(201);
    // Sent to B straight after the write: B reads the change log before deciding.
    const onB = await call(b, 'POST', '/remember', {
      content: 'Invoices are sent on the first Monday of each month.',
      namespace: 'replicas-dup',
    });
    const onA = await call(a, 'POST', '/remember', {
      content: 'Invoices are sent on the first Monday of each month.',
      namespace: 'replicas-dup',
    });
    expect(onA.body).toMatchObject({ id: first.body.id, duplicate: true });
    expect(onB.body).toMatchObject({ id: first.body.id, duplicate: true });

    const fact = await call(a, 'POST', '/remember', {
      content: 'The team standup is at 9:30 in room Orion',
      namespace: 'replicas-contradiction',
    });
    const correction = await call(b, 'POST', '/remember', {
      content: 'The team standup is at 10:00 in room Orion',
      namespace: 'replicas-contradiction',
      detect_contradiction: true,
    });
    expect(correction.status, JSON.stringify([fact.body, correction.body])).toBe(201);
    expect(correction.body.superseded?.id, JSON.stringify([fact.body, correction.body])).toBe(fact.body.id);
    expect(correction.body.superseded?.id).toBe(fact.body.id);
    expect((await call(a, 'GET', `/memory?id=${fact.body.id}`)).body.status).toBe('deprecated');
    const live = await recallIds(a, 'team standup room Orion', 'replicas-contradiction', 'fusion');
    expect(live).toContain(correction.body.id);
    expect(live).not.toContain(fact.body.id);
  });

  it('semantic document search on one sees documents written on the other', async () => {
    // B loads its document index first, so the new document can only reach it through the feed.
    const search = async () =>
      (await call(b, 'POST', '/doc/search', { query: 'kubernetes helm charts install', mode: 'semantic' })).body as {
        slug: string;
      }[];
    expect((await search()).map((d) => d.slug)).not.toContain('replica-setup');
    const made = await call(a, 'POST', '/doc/create', {
      slug: 'replica-setup',
      title: 'Setup',
      content: 'Kubernetes helm charts install the service',
    });
    expect(made.status).toBe(201);
    expect(await eventually(async () => (await search())[0]?.slug === 'replica-setup')).toBe(true);
  });

  it('a replica killed -9 during a burst of writes comes back agreeing with the other', async () => {
    const namespace = 'replicas-burst';
    const acknowledged: { id: string; content: string }[] = [];
    let n = 0;
    const write = async (app: RunningApp) => {
      const i = n++;
      const content = `burst memory ${i} about topic ${i % 7} with marker w${i}x`;
      const res = await call(app, 'POST', '/remember', { content, namespace }).catch(() => undefined);
      if (res?.status === 201) acknowledged.push({ id: res.body.id, content });
    };
    // Writers on both replicas; B is killed while they run, and A's writers carry on.
    const writers = [0, 1, 2, 3].map(async (w) => {
      for (let i = 0; i < 40; i++) await write(w % 2 === 0 || b.child.exitCode !== null ? a : b);
    });
    await eventually(async () => n >= 40);
    b.child.kill('SIGKILL');
    await b.exit;
    await Promise.all(writers);
    b = await startReplica('verify');
    // Writes after the restart reach it through the feed, not the start-up build.
    for (let i = 0; i < 10; i++) await write(a);

    const agree = async () => {
      const [va, vb] = await Promise.all([call(a, 'POST', '/verify'), call(b, 'POST', '/verify')]);
      return va.body.mismatch === false && vb.body.mismatch === false && va.body.rows === vb.body.rows;
    };
    expect(await eventually(agree)).toBe(true);
    // Both find memories written before, during and after the kill by their own words, first.
    for (const m of [acknowledged[0], acknowledged[Math.floor(acknowledged.length / 2)], acknowledged.at(-1)]) {
      const { id, content } = m as { id: string; content: string };
      expect((await recallIds(a, content, namespace, 'vector'))[0]).toBe(id);
      expect((await recallIds(b, content, namespace, 'vector'))[0]).toBe(id);
    }
    const total = (await call(b, 'POST', '/verify')).body.rows;
    expect(total).toBeGreaterThanOrEqual(acknowledged.length);
  }, 120_000);
});

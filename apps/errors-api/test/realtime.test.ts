import { createThrowawayDatabase } from '@trove/data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startApp } from '../../../tests/support/processes.ts';
import { missing } from '../../../tests/support/requirements.ts';
import { envelope, newEventId } from './support/envelopes.ts';
import { ADMIN, client, type Running, setUp, startErrorsApi } from './support/harness.ts';

interface LiveMessage {
  type: string;
  issue?: { id: string; title: string; count: number; status: string; project: string };
}

/** A real WebSocket client that collects messages and resolves once the server says Ready. */
async function connect(url: string, cookie: string) {
  const messages: LiveMessage[] = [];
  const socket = new WebSocket(`${url.replace('http', 'ws')}/api/0/ws`, { headers: { cookie } });
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    const check = () => (messages.some((m) => m.type === 'Ready') ? resolve() : waiters.push(check));
    check();
  });
  const waitFor = (predicate: (m: LiveMessage) => boolean, what: string) =>
    new Promise<LiveMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} arrived`)), 10_000);
      const check = () => {
        const found = messages.find(predicate);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else waiters.push(check);
      };
      check();
    });
  return { socket, messages, waitFor, close: () => socket.close() };
}

async function ingest(base: string, dsn: string, message: string) {
  const key = new URL(dsn);
  const res = await fetch(`${base}/api${key.pathname}/envelope/?sentry_key=${key.username}`, {
    method: 'POST',
    body: envelope({ event_id: newEventId(), message }),
  });
  expect(res.status).toBe(200);
}

describe('live updates over the WebSocket', () => {
  let server: Running;
  let cookie: string;
  let dsn: string;

  beforeAll(async () => {
    server = await startErrorsApi();
    const setup = await setUp(server.url);
    cookie = setup.api.cookie;
    dsn = setup.dsn;
  });
  afterAll(() => server.close());

  it('refuses a connection without a valid session cookie', async () => {
    for (const headers of [{}, { cookie: 'trove_session=00000000-0000-4000-8000-000000000000' }]) {
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/0/ws`, { headers });
      socket.on('error', () => {}); // the refusal itself is what this test expects
      const status = await new Promise<number | undefined>((resolve) => {
        socket.on('unexpected-response', (req, res) => {
          resolve(res.statusCode);
          req.destroy();
        });
        socket.on('open', () => resolve(undefined));
      });
      expect(status).toBe(401);
    }
  });

  it('sends IssueCreated, then IssueUpdated for new events and status changes', async () => {
    const live = await connect(server.url, cookie);
    try {
      await ingest(server.url, dsn, 'live one');
      const created = await live.waitFor((m) => m.type === 'IssueCreated', 'IssueCreated');
      expect(created.issue).toMatchObject({ title: 'live one', count: 1, status: 'unresolved', project: 'default' });
      await ingest(server.url, dsn, 'live one');
      const updated = await live.waitFor((m) => m.type === 'IssueUpdated' && m.issue?.count === 2, 'count update');
      expect(updated.issue?.id).toBe(created.issue?.id);
      const api = client(server.url, cookie);
      await api.call('POST', `/api/0/issues/${created.issue?.id}/status`, { status: 'resolved' });
      await live.waitFor((m) => m.type === 'IssueUpdated' && m.issue?.status === 'resolved', 'status update');
    } finally {
      live.close();
    }
  });
});

const closed = (socket: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );

describe('WebSocket close codes', () => {
  it('closes with 1008 once the session has ended, and with 1001 when the server shuts down', async () => {
    const server = await startErrorsApi({ LIVE_SESSION_CHECK_SECONDS: '1' });
    try {
      const { api } = await setUp(server.url);
      const other = client(server.url);
      await other.call('POST', '/api/0/auth/login', { email: ADMIN.email, password: ADMIN.password });
      const ending = await connect(server.url, other.cookie);
      const staying = await connect(server.url, api.cookie);
      const endedClose = closed(ending.socket);
      await other.call('POST', '/api/0/auth/logout');
      expect(await endedClose).toEqual({ code: 1008, reason: 'session ended: sign in again' });
      expect(staying.socket.readyState).toBe(WebSocket.OPEN);
      const shutdownClose = closed(staying.socket);
      await server.close();
      expect(await shutdownClose).toEqual({ code: 1001, reason: 'server shutting down' });
    } finally {
      await server.close().catch(() => {});
    }
  });
});

// The process as run in production: the signals a container stop (SIGTERM) and Ctrl+C (SIGINT) send.
describe('WebSocket close codes when the process is stopped', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'closes with 1001 on %s and exits 0',
    async (signal) => {
      const app = await startApp('errors-api', { DATA_DIR: 'memory://' });
      try {
        const { api } = await setUp(app.url);
        const live = await connect(app.url, api.cookie);
        const shutdownClose = closed(live.socket);
        app.child.kill(signal);
        expect(await shutdownClose).toEqual({ code: 1001, reason: 'server shutting down' });
        expect(await app.exit).toEqual({ code: 0, signal: null });
      } finally {
        await app.stop();
      }
      // Starting a process takes tens of seconds on a busy machine (startApp waits up to 150 s).
    },
    240_000,
  );
});

// Replicas share Postgres and Redis: an event ingested on one reaches sockets on the other.
describe.skipIf(missing('postgres', 'redis'))('live updates across two replicas sharing Redis', () => {
  it('fans IssueCreated out to a socket on the other replica', async () => {
    const db = await createThrowawayDatabase(process.env.TEST_DATABASE_URL as string, 'errors_ws');
    const env = { DATABASE_URL: db.url, MIGRATE_ON_START: 'apply', REDIS_URL: process.env.REDIS_URL as string };
    const first = await startErrorsApi(env);
    const second = await startErrorsApi(env);
    try {
      const { dsn } = await setUp(first.url);
      const onSecond = client(second.url);
      await onSecond.call('POST', '/api/0/auth/login', { email: ADMIN.email, password: ADMIN.password });
      const live = await connect(second.url, onSecond.cookie);
      const title = `replicated ${newEventId()}`;
      await ingest(first.url, dsn, title);
      const message = await live.waitFor((m) => m.type === 'IssueCreated' && m.issue?.title === title, 'fan-out');
      expect(message.issue?.count).toBe(1);
      live.close();
    } finally {
      await first.close();
      await second.close();
      await db.drop();
    }
  });
});

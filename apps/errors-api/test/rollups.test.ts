import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './support/engines.ts';
import { envelope, errorEvent, newEventId } from './support/envelopes.ts';
import { type Running, setUp, startErrorsApi } from './support/harness.ts';

describe.each(ENGINES)('per-issue users and daily event counts ($name)', (engine) => {
  let server: Running;
  let dsn: URL;
  let drop: () => Promise<void>;

  async function ingest(events: object[]) {
    // Sent together, so the writer stores them in one batch, as a burst would be.
    const answers = await Promise.all(
      events.map((event) =>
        fetch(`${server.url}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`, {
          method: 'POST',
          body: envelope(event),
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(events.map(() => 200));
  }

  const issueRow = async (title: string) =>
    (
      await server.app.errors.db.sql.query<{ id: string; count: number; user_count: number }>(
        'SELECT id, count, user_count FROM issues WHERE title LIKE $1',
        [`%${title}`],
      )
    )[0];

  beforeAll(async () => {
    const db = await engine.env();
    drop = db.drop;
    server = await startErrorsApi(db.env);
    dsn = new URL((await setUp(server.url)).dsn);
  });
  afterAll(async () => {
    await server.close();
    await drop();
  });

  it('counts each user once per issue, by id, e-mail, username or address, and none for events without one', async () => {
    const users = [
      { id: 'u1' },
      { id: 'u1' },
      { email: 'b@example.com' },
      { username: 'carol' },
      { ip_address: '10.0.0.9' },
    ];
    await ingest(users.map((user) => errorEvent('cart total missing', { user })));
    await ingest([errorEvent('cart total missing', { user: { id: 'u1' } }), errorEvent('cart total missing')]);
    const row = await issueRow('cart total missing');
    expect(Number(row?.count)).toBe(7);
    expect(Number(row?.user_count)).toBe(4);
    // A retried envelope (same event id) counts neither an event nor a user again.
    const retried = errorEvent('cart total missing', { user: { id: 'u-new' } });
    await ingest([retried, { ...retried }]);
    await ingest([{ ...retried }]);
    const after = await issueRow('cart total missing');
    expect([Number(after?.count), Number(after?.user_count)]).toEqual([8, 5]);
  });

  it('keeps events per issue per day equal to the events stored', async () => {
    const row = await issueRow('cart total missing');
    await ingest([errorEvent('cart total missing', { event_id: newEventId() })]);
    const { sql } = server.app.errors.db;
    const [daily] = await sql.query<{ events: number | string }>(
      'SELECT sum(events) AS events FROM issue_daily_events WHERE issue_id = $1',
      [row?.id],
    );
    const [stored] = await sql.query<{ n: number | string }>('SELECT count(*) AS n FROM events WHERE issue_id = $1', [
      row?.id,
    ]);
    expect(Number(daily?.events)).toBe(Number(stored?.n));
    expect(Number(stored?.n)).toBe(9);
  });
});

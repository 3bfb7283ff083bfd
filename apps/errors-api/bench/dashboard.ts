/**
 * Dashboard page loads at scale: a project with 10,000 issues and 1,000,000 events on the embedded
 * database, each page fetched over HTTP as a signed-in browser would, beside the JSON API's issue
 * list (the same rows without HTML, charts or filters) in the same run.
 *
 *   npm run bench:dashboard -w apps/errors-api
 *
 * BENCH_ISSUES (default 10000), BENCH_EVENTS (default 1000000), BENCH_REQUESTS per page (default 40).
 * Events are spread over issues by a power law (a few issues hold most events) and over 30 days.
 */
import { deflateRawSync } from 'node:zlib';
import { createLogger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import { buildErrorsApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';

const ISSUES = Number(process.env.BENCH_ISSUES ?? 10_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const logger = createLogger({ service: 'errors-api', level: 'silent', format: 'json' });

const sampleEvent = {
  level: 'error',
  platform: 'node',
  exception: {
    values: [
      {
        type: 'TypeError',
        value: 'cannot read properties of undefined',
        stacktrace: {
          frames: Array.from({ length: 20 }, (_, i) => ({
            filename: `/app/src/module-${i}.js`,
            function: `step${i}`,
            lineno: 10 + i,
            colno: 5,
            in_app: i > 10,
            pre_context: ['const a = 1;', 'const b = 2;'],
            context_line: `return thing${i}.total;`,
            post_context: ['}', ''],
          })),
        },
      },
    ],
  },
  breadcrumbs: {
    values: Array.from({ length: 30 }, (_, i) => ({
      category: 'http',
      message: `GET /api/${i}`,
      timestamp: 1_700_000_000 + i,
    })),
  },
  tags: { region: 'eu-west', release: '1.2.3' },
  user: { id: 'u-1', email: 'someone@example.com' },
  sdk: { name: 'sentry.javascript.node', version: '11.12.0' },
};

async function main() {
  const app = await buildErrorsApp(readConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent' }), logger);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const setup = await fetch(`${base}/api/0/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', name: 'Bench', password: 'a long bench password' }),
  });
  const cookie = (setup.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const { sql } = app.errors.db;

  const seedStart = Date.now();
  const [project] = await sql.query<{ id: number }>("SELECT id FROM projects WHERE slug = 'default'");
  const words = ['timeout', 'payment', 'cart', 'login', 'upload', 'search', 'render', 'cache', 'queue', 'socket'];
  await sql.query(
    `INSERT INTO issues (id, project_id, fingerprint, grouping, title, culprit, level, status, count, first_seen, last_seen)
     SELECT gen_random_uuid(), $1, md5(g::text), '{}'::jsonb,
       'TypeError: ' || ($2::text[])[1 + g % 10] || ' failed in handler ' || g, 'src/' || ($2::text[])[1 + (g / 10) % 10] || '.js in run',
       (ARRAY['error','error','error','warning','fatal','info'])[1 + g % 6], (ARRAY['unresolved','unresolved','resolved','ignored'])[1 + g % 4],
       0, now() - interval '30 days', now() - (g % 43200) * interval '1 minute'
     FROM generate_series(1, $3::int) g`,
    [project?.id, words, ISSUES],
  );
  await sql.query('CREATE TEMP TABLE bench_issue_numbers AS SELECT row_number() OVER () AS n, id FROM issues');
  const payload = deflateRawSync(Buffer.from(JSON.stringify(sampleEvent)));
  const chunk = 100_000;
  for (let start = 0; start < EVENTS; start += chunk) {
    await sql.query(
      `INSERT INTO events (id, project_id, issue_id, event_id, level, title, received_at, payload)
       SELECT gen_random_uuid(), $1, b.id, md5('e' || s.g), 'error', 'TypeError', now() - random() * interval '30 days', $2
       FROM (SELECT g, 1 + floor($5::int * power(random(), 3))::int AS n FROM generate_series($3::int, $4::int) g) s
       JOIN bench_issue_numbers b ON b.n = s.n`,
      [project?.id, payload, start + 1, Math.min(EVENTS, start + chunk), ISSUES],
    );
  }
  await sql.query(
    'UPDATE issues i SET count = c.n FROM (SELECT issue_id, count(*) AS n FROM events GROUP BY 1) c WHERE c.issue_id = i.id',
  );
  // What ingest keeps beside the events: the daily rollup the charts read, and users per issue.
  await sql.query(
    `INSERT INTO issue_daily_events (issue_id, day, events)
     SELECT issue_id, (received_at AT TIME ZONE 'UTC')::date, count(*) FROM events GROUP BY 1, 2`,
  );
  await sql.query('UPDATE issues SET user_count = least(count, 1 + count / 7)');
  await sql.query('ANALYZE issues');
  await sql.query('ANALYZE events');
  await sql.query('ANALYZE issue_daily_events');
  const [hottest] = await sql.query<{ id: string }>('SELECT id FROM issues ORDER BY count DESC LIMIT 1');
  const [typical] = await sql.query<{ id: string }>('SELECT id FROM issues ORDER BY count DESC OFFSET 500 LIMIT 1');
  console.log(`seeded ${ISSUES} issues and ${EVENTS} events in ${((Date.now() - seedStart) / 1000).toFixed(0)} s\n`);

  const pages: [string, string][] = [
    ['JSON API: GET /api/0/projects/default/issues (baseline)', '/api/0/projects/default/issues?per_page=25'],
    ['issues page, default (unresolved, last seen)', '/projects/default/issues'],
    ['issues page, any status, sorted by events', '/projects/default/issues?status=&sort=events'],
    ['issues page, any status, sorted by users', '/projects/default/issues?status=&sort=users'],
    ['issues page, search "payment"', '/projects/default/issues?status=&q=payment'],
    ['issues page, level warning, page 20', '/projects/default/issues?status=&level=warning&page=20'],
    ['issue page, the hottest issue', `/issues/${hottest?.id}`],
    ['issue page, a typical issue', `/issues/${typical?.id}`],
  ];
  if (process.env.BENCH_EXPLAIN) {
    for (const line of await sql.query<Record<string, string>>(process.env.BENCH_EXPLAIN, [project?.id]))
      console.log(Object.values(line)[0]);
  }
  console.log('| page | p50 ms | p95 ms | bytes |');
  console.log('|---|---|---|---|');
  for (const [name, path] of pages) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < REQUESTS + 3; i++) {
      const start = performance.now();
      const res = await fetch(`${base}${path}`, { headers: { cookie } });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      if (i >= 3) times.push(performance.now() - start);
      bytes = body.byteLength;
    }
    console.log(`| ${name} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${bytes} |`);
  }
  await app.close();
}

await main();

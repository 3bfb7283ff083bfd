import type { FastifyPluginAsync } from 'fastify';
import { requireUser } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { findIssue, type Page } from '../../issues/issue-queries.ts';
import { findProject } from '../../projects/project-store.ts';
import { issueTagsSchema, listReleasesSchema } from '../../schemas/releases.ts';
import { sourceMapRoutes } from '../sourcemaps/index.ts';

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/**
 * Releases are those events named (read from the issues' tag counts, so ingest writes nothing
 * more for them) and those created through the API before any event (sentry-cli).
 */
const RELEASES_SQL = `
  WITH seen AS (
    SELECT value AS version, min(first_seen) AS first_event, max(last_seen) AS last_event, sum(times_seen) AS events
    FROM issue_tags WHERE project_id = $1 AND key = 'release' GROUP BY value
  ),
  made AS (SELECT version, date_created FROM releases WHERE project_id = $1),
  news AS (
    SELECT first_release AS version, count(*) AS new_issues FROM issues
    WHERE project_id = $1 AND first_release IS NOT NULL GROUP BY first_release
  ),
  listed AS (
    SELECT v.version, LEAST(m.date_created, s.first_event) AS date_created, s.first_event, s.last_event,
      COALESCE(s.events, 0) AS event_count, COALESCE(n.new_issues, 0) AS new_issues
    FROM (SELECT version FROM seen UNION SELECT version FROM made) v
    LEFT JOIN seen s USING (version) LEFT JOIN made m USING (version) LEFT JOIN news n USING (version)
  )
  SELECT *, count(*) OVER () AS total FROM listed ORDER BY date_created DESC, version LIMIT $2 OFFSET $3`;

interface ReleaseRow {
  version: string;
  date_created: Date | string;
  first_event: Date | string | null;
  last_event: Date | string | null;
  event_count: number | string;
  new_issues: number | string;
  total: number | string;
}

export const releaseRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  app.addHook('onRequest', requireUser(db));
  // sentry-cli's upload routes, behind the same sign-in (an auth token, in practice).
  await app.register(sourceMapRoutes, ctx);

  app.get<{ Params: { slug: string }; Querystring: Page }>(
    '/api/0/projects/:slug/releases',
    { schema: listReleasesSchema },
    async (request) => {
      const { page, per_page } = request.query;
      const project = await findProject(db, request.params.slug);
      const rows = await db.sql.query<ReleaseRow>(RELEASES_SQL, [project.id, per_page, (page - 1) * per_page]);
      let total = Number(rows[0]?.total ?? 0);
      if (rows.length === 0 && page > 1) {
        const [all] = await db.sql.query<ReleaseRow>(RELEASES_SQL, [project.id, 1, 0]);
        total = Number(all?.total ?? 0);
      }
      return {
        data: rows.map((r) => ({
          version: r.version,
          date_created: iso(r.date_created),
          first_event: iso(r.first_event),
          last_event: iso(r.last_event),
          event_count: Number(r.event_count),
          new_issues: Number(r.new_issues),
        })),
        total,
        page,
        per_page,
      };
    },
  );

  app.get<{ Params: { id: string } }>('/api/0/issues/:id/tags', { schema: issueTagsSchema }, async (request) => {
    const issue = await findIssue(db, request.params.id);
    const rows = await db.sql.query<{
      key: string;
      value: string;
      times_seen: number | string;
      first_seen: Date | string;
      last_seen: Date | string;
    }>(
      'SELECT key, value, times_seen, first_seen, last_seen FROM issue_tags WHERE issue_id = $1 ORDER BY key, times_seen DESC, value',
      [issue.id],
    );
    const keys = new Map<string, { key: string; total: number; values_seen: number; top_values: object[] }>();
    for (const row of rows) {
      let entry = keys.get(row.key);
      if (!entry) {
        entry = { key: row.key, total: 0, values_seen: 0, top_values: [] };
        keys.set(row.key, entry);
      }
      const count = Number(row.times_seen);
      entry.total += count;
      entry.values_seen++;
      if (entry.top_values.length < 10) {
        entry.top_values.push({
          value: row.value,
          count,
          first_seen: iso(row.first_seen),
          last_seen: iso(row.last_seen),
        });
      }
    }
    return [...keys.values()];
  });
};

import { badRequest } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import { requireUser } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { type IssueRow, issueJson } from '../../issues/issue-json.ts';
import { findIssue, listIssues, type Page, parseLevelFilter, parseStatusFilter } from '../../issues/issue-queries.ts';
import type { SortKey } from '../../issues/sorts.ts';
import { findProject } from '../../projects/project-store.ts';
import {
  getIssueSchema,
  issueEventsSchema,
  listIssuesSchema,
  searchIssuesSchema,
  setStatusSchema,
} from '../../schemas/issues.ts';
import { viewPayload } from '../../sourcemaps/view.ts';

type IdParams = { Params: { id: string } };
type SlugParams = { Params: { slug: string } };
interface IssueListParams {
  status?: string;
  level?: string;
  query?: string;
  sort?: SortKey;
  environment?: string;
  release?: string;
}

const iso = (v: Date | string) => new Date(v).toISOString();

export const issueRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const { db, live } = ctx;
  app.addHook('onRequest', requireUser(db));

  app.get<SlugParams & { Querystring: Page & IssueListParams }>(
    '/api/0/projects/:slug/issues',
    { schema: listIssuesSchema },
    async (request) => {
      const { page, per_page, status, level, query, sort, environment, release } = request.query;
      const statuses = parseStatusFilter(status);
      const levels = parseLevelFilter(level);
      const project = await findProject(db, request.params.slug);
      const filter = { projectId: project.id, statuses, levels, query, sort, environment, release };
      const { rows, total } = await listIssues(db, filter, { page, per_page });
      return { data: rows.map((r) => issueJson(r, project.slug)), total, page, per_page };
    },
  );

  app.get<SlugParams & { Querystring: Page & { q: string } }>(
    '/api/0/projects/:slug/search',
    { schema: searchIssuesSchema },
    async (request) => {
      const { page, per_page, q } = request.query;
      const project = await findProject(db, request.params.slug);
      const { rows, total } = await listIssues(db, { projectId: project.id, titleContains: q }, { page, per_page });
      return { data: rows.map((r) => issueJson(r, project.slug)), total, page, per_page };
    },
  );

  app.get<IdParams>('/api/0/issues/:id', { schema: getIssueSchema }, async (request) => {
    const issue = await findIssue(db, request.params.id);
    const [latest] = await db.sql.query<{ payload: Uint8Array; event_id: string }>(
      'SELECT payload, event_id FROM events WHERE issue_id = $1 ORDER BY received_at DESC LIMIT 1',
      [issue.id],
    );
    return {
      ...issueJson(issue, issue.project_slug),
      fingerprint: issue.fingerprint,
      grouping: issue.grouping,
      latest_event: latest ? await viewPayload(ctx, latest.payload, latest.event_id, issue.project_id) : null,
    };
  });

  app.post<IdParams & { Body: { status: string; in_next_release?: boolean } }>(
    '/api/0/issues/:id/status',
    { schema: setStatusSchema },
    async (request) => {
      const { status, in_next_release: inNextRelease = false } = request.body;
      if (inNextRelease && status !== 'resolved')
        throw badRequest('body.in_next_release goes only with status "resolved"');
      const issue = await findIssue(db, request.params.id);
      if (inNextRelease && !issue.last_release) {
        throw badRequest(
          'body.in_next_release: no event of this issue names a release; resolve it without in_next_release',
        );
      }
      const [updated] = await db.sql.query<IssueRow>(
        `UPDATE issues SET status = $2, resolved_after_release = CASE WHEN $3 THEN last_release END
         WHERE id = $1 RETURNING *`,
        [issue.id, status, inNextRelease],
      );
      const json = issueJson(updated ?? { ...issue, status }, issue.project_slug);
      if (issue.status !== status || inNextRelease) await live.publish('IssueUpdated', json);
      return json;
    },
  );

  app.get<IdParams & { Querystring: Page & { environment?: string; release?: string } }>(
    '/api/0/issues/:id/events',
    { schema: issueEventsSchema },
    async (request) => {
      const { page, per_page, environment, release } = request.query;
      const issue = await findIssue(db, request.params.id);
      // Unset filters are NULL and match every event.
      const where = 'issue_id = $1 AND ($2::text IS NULL OR environment = $2) AND ($3::text IS NULL OR release = $3)';
      const filters = [issue.id, environment ?? null, release ?? null];
      const rows = await db.sql.query<{
        id: string;
        event_id: string;
        level: string;
        title: string;
        received_at: Date | string;
        payload: Uint8Array;
      }>(
        `SELECT id, event_id, level, title, release, environment, received_at, payload FROM events WHERE ${where}
         ORDER BY received_at DESC, id LIMIT $4 OFFSET $5`,
        [...filters, per_page, (page - 1) * per_page],
      );
      const [counted] = await db.sql.query<{ total: string | number }>(
        `SELECT count(*) AS total FROM events WHERE ${where}`,
        filters,
      );
      return {
        data: await Promise.all(
          rows.map(async (r) => ({
            ...r,
            received_at: iso(r.received_at),
            payload: await viewPayload(ctx, r.payload, r.event_id, issue.project_id),
          })),
        ),
        total: Number(counted?.total ?? 0),
        page,
        per_page,
      };
    },
  );
};

import type { FastifyPluginAsync } from 'fastify';
import { requireUser } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { readPayload } from '../../ingest/prepare-event.ts';
import { type IssueRow, issueJson } from '../../issues/issue-json.ts';
import { findIssue, listIssues, type Page, parseLevelFilter, parseStatusFilter } from '../../issues/issue-queries.ts';
import { findProject } from '../../projects/project-store.ts';
import {
  getIssueSchema,
  issueEventsSchema,
  listIssuesSchema,
  searchIssuesSchema,
  setStatusSchema,
} from '../../schemas/issues.ts';

type IdParams = { Params: { id: string } };
type SlugParams = { Params: { slug: string } };

const iso = (v: Date | string) => new Date(v).toISOString();

export const issueRoutes: FastifyPluginAsync<AppContext> = async (app, { db, live }) => {
  app.addHook('onRequest', requireUser(db));

  app.get<SlugParams & { Querystring: Page & { status?: string; level?: string } }>(
    '/api/0/projects/:slug/issues',
    { schema: listIssuesSchema },
    async (request) => {
      const { page, per_page, status, level } = request.query;
      const statuses = parseStatusFilter(status);
      const levels = parseLevelFilter(level);
      const project = await findProject(db, request.params.slug);
      const { rows, total } = await listIssues(db, { projectId: project.id, statuses, levels }, { page, per_page });
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
      latest_event: latest ? readPayload(latest.payload, latest.event_id) : null,
    };
  });

  app.post<IdParams & { Body: { status: string } }>(
    '/api/0/issues/:id/status',
    { schema: setStatusSchema },
    async (request) => {
      const issue = await findIssue(db, request.params.id);
      const [updated] = await db.sql.query<IssueRow>('UPDATE issues SET status = $2 WHERE id = $1 RETURNING *', [
        issue.id,
        request.body.status,
      ]);
      const json = issueJson(updated ?? { ...issue, status: request.body.status }, issue.project_slug);
      if (issue.status !== request.body.status) await live.publish('IssueUpdated', json);
      return json;
    },
  );

  app.get<IdParams & { Querystring: Page }>(
    '/api/0/issues/:id/events',
    { schema: issueEventsSchema },
    async (request) => {
      const { page, per_page } = request.query;
      const issue = await findIssue(db, request.params.id);
      const rows = await db.sql.query<{
        id: string;
        event_id: string;
        level: string;
        title: string;
        received_at: Date | string;
        payload: Uint8Array;
      }>(
        `SELECT id, event_id, level, title, received_at, payload FROM events WHERE issue_id = $1
         ORDER BY received_at DESC, id LIMIT $2 OFFSET $3`,
        [issue.id, per_page, (page - 1) * per_page],
      );
      const [counted] = await db.sql.query<{ total: string | number }>(
        'SELECT count(*) AS total FROM events WHERE issue_id = $1',
        [issue.id],
      );
      return {
        data: rows.map((r) => ({ ...r, received_at: iso(r.received_at), payload: readPayload(r.payload, r.event_id) })),
        total: Number(counted?.total ?? 0),
        page,
        per_page,
      };
    },
  );
};

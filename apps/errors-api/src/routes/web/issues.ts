import { HttpError } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { issueJson } from '../../issues/issue-json.ts';
import { STATUSES } from '../../schemas/issues.ts';
import { viewPayload } from '../../sourcemaps/view.ts';
import { apiError, callApi } from '../../web/api.ts';
import { dailyEvents, listIssuePage, SORTS, type SortKey } from '../../web/issue-list-query.ts';
import { errorPage } from '../../web/pages/errors.ts';
import { type EventSummary, issuePage } from '../../web/pages/issue.ts';
import { issueListPage } from '../../web/pages/issues.ts';
import { checkFormToken, type Form, field, sendPage, viewerOrRedirect } from '../../web/request.ts';

const PER_PAGE = 25;
const EVENTS_PER_PAGE = 20;
const LEVELS = ['fatal', 'error', 'warning', 'info', 'debug'];
const EVENT_ID = /^[0-9a-f]{32}$/;

const pageNumber = (raw: unknown) => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
};
const oneOf = (raw: unknown, allowed: readonly string[], fallback: string) =>
  typeof raw === 'string' && allowed.includes(raw) ? raw : fallback;

type ListQuery = { Params: { slug: string }; Querystring: Record<string, string | undefined> };
type IssueQuery = { Params: { id: string }; Querystring: { event?: string; page?: string } };

export const issuePages: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  app.get<ListQuery>('/projects/:slug/issues', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    const project = await callApi(app, request, 'GET', `/api/0/projects/${encodeURIComponent(request.params.slug)}`);
    if (project.status !== 200) return sendPage(reply, errorPage(viewer, project), project.status);
    const query = request.query;
    // A first visit shows what needs attention; "any" is an explicit empty choice.
    const status = query.status === undefined ? 'unresolved' : oneOf(query.status, ['', ...STATUSES], 'unresolved');
    const level = oneOf(query.level, ['', ...LEVELS], '');
    const sort = oneOf(query.sort, Object.keys(SORTS), 'last_seen') as SortKey;
    const q = (query.q ?? '').trim().slice(0, 200);
    const page = pageNumber(query.page);
    const listed = await listIssuePage(db, {
      projectId: project.json.id,
      status: status || undefined,
      level: level || undefined,
      q: q || undefined,
      sort,
      page,
      perPage: PER_PAGE,
    }).catch((err: unknown) => {
      // A search the syntax refuses is shown with the reason, as the API words it.
      if (err instanceof HttpError) return { status: err.statusCode, json: { error: err.message } };
      throw err;
    });
    if ('status' in listed) return sendPage(reply, errorPage(viewer, listed), listed.status);
    const { rows, total } = listed;
    const charts = await dailyEvents(
      db,
      rows.map((r) => r.id),
      14,
    );
    const issues = rows.map((r) => ({
      ...issueJson({ ...r, fingerprint: '', grouping: null }, project.json.slug),
      users: Number(r.user_count),
    }));
    return sendPage(
      reply,
      issueListPage(viewer, project.json, { status, level, q, sort, page, perPage: PER_PAGE, total, issues, charts }),
    );
  });

  app.get<IssueQuery>('/issues/:id', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    const answer = await callApi(app, request, 'GET', `/api/0/issues/${encodeURIComponent(request.params.id)}`);
    if (answer.status !== 200) return sendPage(reply, errorPage(viewer, answer), answer.status);
    const [counted] = await db.sql.query<{ user_count: number | string; project_id: number }>(
      'SELECT user_count, project_id FROM issues WHERE id = $1',
      [answer.json.id],
    );
    const issue = { ...answer.json, users: Number(counted?.user_count ?? 0) };
    const project = await callApi(app, request, 'GET', `/api/0/projects/${issue.project}`);
    const eventsPage = pageNumber(request.query.page);
    const events = await db.sql.query<EventSummary & { received_at: Date | string }>(
      `SELECT event_id, level, title, received_at FROM events WHERE issue_id = $1
       ORDER BY received_at DESC, id LIMIT $2 OFFSET $3`,
      [issue.id, EVENTS_PER_PAGE, (eventsPage - 1) * EVENTS_PER_PAGE],
    );
    let shown = issue.latest_event ? { event_id: issue.latest_event.event_id, payload: issue.latest_event } : null;
    const wanted = request.query.event;
    if (wanted && EVENT_ID.test(wanted)) {
      const [row] = await db.sql.query<{ payload: Uint8Array; event_id: string }>(
        'SELECT payload, event_id FROM events WHERE issue_id = $1 AND event_id = $2',
        [issue.id, wanted],
      );
      if (row)
        shown = {
          event_id: row.event_id,
          payload: await viewPayload(ctx, row.payload, row.event_id, Number(counted?.project_id)),
        };
    }
    const chart = (await dailyEvents(db, [issue.id], 30)).get(issue.id) ?? [];
    return sendPage(
      reply,
      issuePage(viewer, {
        issue,
        projectName: project.json?.name ?? issue.project,
        chart,
        events: events.map((e) => ({ ...e, received_at: new Date(e.received_at).toISOString() })),
        eventsTotal: issue.count,
        eventsPage,
        perPage: EVENTS_PER_PAGE,
        shown,
      }),
    );
  });

  app.post<{ Params: { id: string }; Body: Form }>('/issues/:id/status', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    checkFormToken(request, request.body);
    const id = encodeURIComponent(request.params.id);
    const answer = await callApi(app, request, 'POST', `/api/0/issues/${id}/status`, {
      status: field(request.body, 'status'),
    });
    if (answer.status !== 200)
      return sendPage(reply, errorPage(viewer, { ...answer, json: { error: apiError(answer) } }), answer.status);
    return reply.redirect(`/issues/${id}`, 303);
  });
};

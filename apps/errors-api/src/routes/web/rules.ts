import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { type ApiAnswer, apiError, callApi } from '../../web/api.ts';
import type { Viewer } from '../../web/layout.ts';
import { errorPage } from '../../web/pages/errors.ts';
import { type RuleJson, ruleFormPage, rulesPage } from '../../web/pages/rules.ts';
import { checkFormToken, type Form, field, fields, sendPage, viewerOrRedirect } from '../../web/request.ts';

type Slug = { Params: { slug: string } };
type Id = { Params: { id: string } };

/** The rule form as the API's body; numbers stay strings when they are not numbers, so the API names the field. */
function ruleBody(form: Form) {
  const conditions: Record<string, unknown> = {};
  const levels = fields(form, 'level');
  if (levels.length) conditions.level = levels;
  const minCount = field(form, 'min_count').trim();
  if (minCount) conditions.min_count = /^\d+$/.test(minCount) ? Number(minCount) : minCount;
  const title = field(form, 'title_contains').trim();
  if (title) conditions.title_contains = title;
  if (field(form, 'new_issue') === 'true') conditions.new_issue = true;
  const cooldown = field(form, 'cooldown_seconds').trim() || '300';
  return {
    name: field(form, 'name'),
    conditions,
    action_type: 'webhook',
    action_config: { url: field(form, 'url') },
    cooldown_seconds: /^\d+$/.test(cooldown) ? Number(cooldown) : cooldown,
    enabled: field(form, 'enabled') === 'true',
  };
}

export const rulePages: FastifyPluginAsync<AppContext> = async (app, { db }) => {
  const projectOf = (request: FastifyRequest, slug: string) =>
    callApi(app, request, 'GET', `/api/0/projects/${encodeURIComponent(slug)}`);

  async function listPage(request: FastifyRequest, viewer: Viewer, slug: string, notice?: string, error?: string) {
    const project = await projectOf(request, slug);
    if (project.status !== 200) return { status: project.status, markup: errorPage(viewer, project) };
    const rules = await callApi(app, request, 'GET', `/api/0/projects/${encodeURIComponent(slug)}/rules`);
    return { status: 200, markup: rulesPage(viewer, project.json, rules.json as RuleJson[], notice, error) };
  }

  app.get<Slug>('/projects/:slug/rules', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    const { status, markup } = await listPage(request, viewer, request.params.slug);
    return sendPage(reply, markup, status);
  });

  app.get<Slug>('/projects/:slug/rules/new', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    const project = await projectOf(request, request.params.slug);
    if (project.status !== 200) return sendPage(reply, errorPage(viewer, project), project.status);
    return sendPage(reply, ruleFormPage(viewer, project.json, undefined));
  });

  app.post<Slug & { Body: Form }>('/projects/:slug/rules', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    checkFormToken(request, request.body);
    const slug = encodeURIComponent(request.params.slug);
    const body = ruleBody(request.body);
    const answer = await callApi(app, request, 'POST', `/api/0/projects/${slug}/rules`, body);
    if (answer.status === 201) return reply.redirect(`/projects/${slug}/rules`, 303);
    const project = await projectOf(request, request.params.slug);
    if (project.status !== 200) return sendPage(reply, errorPage(viewer, project), project.status);
    // The form comes back filled in as sent, with the API's message above it.
    const draft = { id: '', ...body } as unknown as RuleJson;
    return sendPage(reply, ruleFormPage(viewer, project.json, undefined, apiError(answer), draft), answer.status);
  });

  async function ruleById(
    request: FastifyRequest,
    id: string,
  ): Promise<{ rule?: RuleJson & { project: string }; answer: ApiAnswer }> {
    // The API lists rules per project, so the rule's project is looked up first.
    const [row] = await db.sql.query<{ slug: string }>(
      'SELECT p.slug FROM alert_rules r JOIN projects p ON p.id = r.project_id WHERE r.id::text = $1',
      [id],
    );
    if (!row) return { answer: { status: 404, json: { error: `no rule with id "${id}"` } } };
    const answer = await callApi(app, request, 'GET', `/api/0/projects/${encodeURIComponent(row.slug)}/rules`);
    const rule = (answer.json as (RuleJson & { project: string })[] | undefined)?.find((r) => r.id === id);
    return rule ? { rule, answer } : { answer: { status: 404, json: { error: `no rule with id "${id}"` } } };
  }

  app.get<Id>('/rules/:id/edit', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    const { rule, answer } = await ruleById(request, request.params.id);
    if (!rule) return sendPage(reply, errorPage(viewer, answer), answer.status);
    const project = await projectOf(request, rule.project);
    return sendPage(reply, ruleFormPage(viewer, project.json, rule));
  });

  app.post<Id & { Body: Form }>('/rules/:id/edit', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    checkFormToken(request, request.body);
    const { rule, answer: found } = await ruleById(request, request.params.id);
    if (!rule) return sendPage(reply, errorPage(viewer, found), found.status);
    const body = ruleBody(request.body);
    const answer = await callApi(app, request, 'PUT', `/api/0/rules/${rule.id}`, body);
    if (answer.status === 200) return reply.redirect(`/projects/${rule.project}/rules`, 303);
    const project = await projectOf(request, rule.project);
    return sendPage(
      reply,
      ruleFormPage(viewer, project.json, rule, apiError(answer), { ...rule, ...body } as RuleJson),
      answer.status,
    );
  });

  /** Toggle, test and delete: call the API and come back to the list with what happened. */
  function listAction(path: string, method: 'POST' | 'DELETE', apiPath: (id: string) => string) {
    app.post<Id & { Body: Form }>(`/rules/:id/${path}`, async (request, reply) => {
      const viewer = await viewerOrRedirect(db, request, reply);
      if (!viewer) return reply;
      checkFormToken(request, request.body);
      const { rule, answer: found } = await ruleById(request, request.params.id);
      if (!rule) return sendPage(reply, errorPage(viewer, found), found.status);
      const answer = await callApi(app, request, method, apiPath(rule.id));
      if (answer.status >= 300) {
        const { status, markup } = await listPage(request, viewer, rule.project, undefined, apiError(answer));
        return sendPage(reply, markup, status === 200 ? answer.status : status);
      }
      if (path !== 'test') return reply.redirect(`/projects/${rule.project}/rules`, 303);
      const result = answer.json as { ok: boolean; status?: number; error?: string };
      const notice = result.ok
        ? `Test delivery to "${rule.name}" succeeded: the webhook answered ${result.status}.`
        : `Test delivery to "${rule.name}" failed: ${result.error ?? `the webhook answered ${result.status}`}.`;
      const { status, markup } = await listPage(request, viewer, rule.project, notice);
      return sendPage(reply, markup, status);
    });
  }
  listAction('toggle', 'POST', (id) => `/api/0/rules/${id}/toggle`);
  listAction('test', 'POST', (id) => `/api/0/rules/${id}/test`);
  listAction('delete', 'DELETE', (id) => `/api/0/rules/${id}`);
};

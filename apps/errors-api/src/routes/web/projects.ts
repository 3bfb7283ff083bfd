import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { apiError, callApi } from '../../web/api.ts';
import { errorPage } from '../../web/pages/errors.ts';
import { type ProjectJson, projectSettingsPage, projectsPage } from '../../web/pages/projects.ts';
import { checkFormToken, type Form, field, sendPage, viewerOrRedirect } from '../../web/request.ts';

type Slug = { Params: { slug: string } };

export const projectPages: FastifyPluginAsync<AppContext> = async (app, { db }) => {
  app.get('/projects', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    const answer = await callApi(app, request, 'GET', '/api/0/projects');
    return sendPage(reply, projectsPage(viewer, answer.json as ProjectJson[]));
  });

  app.post<{ Body: Form }>('/projects', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    checkFormToken(request, request.body);
    const slug = field(request.body, 'slug').trim();
    const created = await callApi(app, request, 'POST', '/api/0/projects', {
      name: field(request.body, 'name'),
      ...(slug ? { slug } : {}),
    });
    if (created.status === 201) return reply.redirect(`/projects/${created.json.slug}/settings`, 303);
    const list = await callApi(app, request, 'GET', '/api/0/projects');
    return sendPage(reply, projectsPage(viewer, list.json as ProjectJson[], apiError(created)), created.status);
  });

  app.get<Slug>('/projects/:slug', async (request, reply) =>
    reply.redirect(`/projects/${encodeURIComponent(request.params.slug)}/issues`, 303),
  );

  app.get<Slug>('/projects/:slug/settings', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    const answer = await callApi(app, request, 'GET', `/api/0/projects/${encodeURIComponent(request.params.slug)}`);
    if (answer.status !== 200) return sendPage(reply, errorPage(viewer, answer), answer.status);
    return sendPage(reply, projectSettingsPage(viewer, answer.json));
  });

  /** A settings action: call the API, then show the settings again (with the API's error, if any). */
  function settingsAction(
    path: string,
    method: 'POST' | 'PATCH' | 'DELETE',
    body?: (form: Form) => unknown,
    after?: (slug: string) => string,
  ) {
    app.post<Slug & { Body: Form }>(
      `/projects/:slug/${path}`,
      async (request: FastifyRequest<Slug & { Body: Form }>, reply: FastifyReply) => {
        const viewer = await viewerOrRedirect(db, request, reply);
        if (!viewer) return reply;
        checkFormToken(request, request.body);
        const base = `/api/0/projects/${encodeURIComponent(request.params.slug)}`;
        const url =
          path === 'rename' || path === 'delete' ? base : path === 'unarchive' ? `${base}/archive` : `${base}/${path}`;
        const answer = await callApi(app, request, method, url, body?.(request.body));
        if (answer.status < 300)
          return reply.redirect(after?.(request.params.slug) ?? `/projects/${request.params.slug}/settings`, 303);
        const current = await callApi(app, request, 'GET', base);
        if (current.status !== 200) return sendPage(reply, errorPage(viewer, answer), answer.status);
        return sendPage(reply, projectSettingsPage(viewer, current.json, apiError(answer)), answer.status);
      },
    );
  }
  settingsAction('rename', 'PATCH', (form) => ({ name: field(form, 'name') }));
  settingsAction('archive', 'POST');
  settingsAction('unarchive', 'DELETE');
  settingsAction('rotate-dsn', 'POST');
  settingsAction('delete', 'DELETE', undefined, () => '/projects');
};

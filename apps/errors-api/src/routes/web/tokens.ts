import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { apiError, callApi } from '../../web/api.ts';
import { type TokenJson, tokensPage } from '../../web/pages/tokens.ts';
import { checkFormToken, type Form, field, sendPage, viewerOrRedirect } from '../../web/request.ts';

/** Account settings: auth tokens, through the API's own routes. */
export const tokenPages: FastifyPluginAsync<AppContext> = async (app, { db, config }) => {
  const organization = config.ORGANIZATION_SLUG;
  const list = async (request: Parameters<typeof callApi>[1]) =>
    (await callApi(app, request, 'GET', '/api/0/api-tokens/')).json as TokenJson[];

  app.get('/settings/tokens', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    return sendPage(reply, tokensPage(viewer, await list(request), { organization }));
  });

  app.post<{ Body: Form }>('/settings/tokens', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    checkFormToken(request, request.body);
    const created = await callApi(app, request, 'POST', '/api/0/api-tokens/', { name: field(request.body, 'name') });
    // Shown in the answer to the POST itself, never in a URL or a later page: it is not stored.
    if (created.status === 201) {
      reply.header('cache-control', 'no-store');
      return sendPage(reply, tokensPage(viewer, await list(request), { organization, created: created.json.token }));
    }
    return sendPage(
      reply,
      tokensPage(viewer, await list(request), { organization, error: apiError(created) }),
      created.status,
    );
  });

  app.post<{ Params: { id: string }; Body: Form }>('/settings/tokens/:id/revoke', async (request, reply) => {
    const viewer = await viewerOrRedirect(db, request, reply);
    if (!viewer) return reply;
    checkFormToken(request, request.body);
    const answer = await callApi(app, request, 'DELETE', `/api/0/api-tokens/${encodeURIComponent(request.params.id)}/`);
    if (answer.status < 300) return reply.redirect('/settings/tokens', 303);
    return sendPage(
      reply,
      tokensPage(viewer, await list(request), { organization, error: apiError(answer) }),
      answer.status,
    );
  });
};

import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sessionUser } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { apiError, callApi } from '../../web/api.ts';
import { FORM_COOKIE, newFormToken } from '../../web/csrf.ts';
import { loginPage, setupPage } from '../../web/pages/auth.ts';
import {
  checkFormToken,
  type Form,
  field,
  parseForm,
  safeNext,
  sendPage,
  viewerOrRedirect,
} from '../../web/request.ts';
import { issuePages } from './issues.ts';
import { projectPages } from './projects.ts';
import { rulePages } from './rules.ts';
import { tokenPages } from './tokens.ts';

const ASSETS: Record<string, { type: string; body: string }> = Object.fromEntries(
  [
    ['app.css', 'text/css; charset=utf-8'],
    ['app.js', 'text/javascript; charset=utf-8'],
  ].map(([name, type]) => [
    name,
    { type: type as string, body: readFileSync(new URL(`../../web/assets/${name}`, import.meta.url), 'utf8') },
  ]),
);

/**
 * The web dashboard: server-rendered pages over the JSON API, same origin and session cookie.
 * Encapsulated (not fastify-plugin), so its form parser and hooks stay off the API's routes.
 */
export const webRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  // Pages are not part of the API: keep them out of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => done(null, parseForm(body as string)),
  );

  app.get<{ Params: { file: string } }>('/ui/assets/:file', async (request, reply) => {
    const asset = ASSETS[request.params.file];
    if (!asset) return reply.code(404).send({ error: 'no such asset' });
    return reply.header('content-type', asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
  });

  const needsSetup = async () => (await db.prisma.user.count()) === 0;

  /** Anonymous forms get a random token in a cookie and the same in the form (double submit). */
  function formToken(request: FastifyRequest, reply: FastifyReply): string {
    const existing = request.cookies[FORM_COOKIE];
    if (existing) return existing;
    const token = newFormToken();
    reply.setCookie(FORM_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
    });
    return token;
  }

  app.get('/', async (request, reply) => {
    if (await needsSetup()) return reply.redirect('/setup', 303);
    return reply.redirect((await sessionUser(db, request)) ? '/projects' : '/login', 303);
  });

  app.get('/setup', async (request, reply) => {
    if (!(await needsSetup())) return reply.redirect('/login', 303);
    return sendPage(reply, setupPage(formToken(request, reply)));
  });

  app.post<{ Body: Form }>('/setup', async (request, reply) => {
    const form = request.body;
    checkFormToken(request, form);
    const values = { email: field(form, 'email'), name: field(form, 'name'), password: field(form, 'password') };
    const answer = await callApi(app, request, 'POST', '/api/0/setup', values, reply);
    if (answer.status === 201) return reply.redirect(`/projects/${answer.json.project_slug}/settings`, 303);
    return sendPage(reply, setupPage(formToken(request, reply), apiError(answer), values), answer.status);
  });

  app.get<{ Querystring: { next?: string } }>('/login', async (request, reply) => {
    if (await needsSetup()) return reply.redirect('/setup', 303);
    return sendPage(reply, loginPage(formToken(request, reply), undefined, '', safeNext(request.query.next)));
  });

  app.post<{ Body: Form; Querystring: { next?: string } }>('/login', async (request, reply) => {
    const form = request.body;
    checkFormToken(request, form);
    const email = field(form, 'email');
    const answer = await callApi(
      app,
      request,
      'POST',
      '/api/0/auth/login',
      { email, password: field(form, 'password') },
      reply,
    );
    if (answer.status === 200) return reply.redirect(safeNext(request.query.next), 303);
    return sendPage(
      reply,
      loginPage(formToken(request, reply), apiError(answer), email, safeNext(request.query.next)),
      answer.status,
    );
  });

  app.post<{ Body: Form }>('/logout', async (request, reply) => {
    if (!(await viewerOrRedirect(db, request, reply))) return reply;
    checkFormToken(request, request.body);
    await callApi(app, request, 'POST', '/api/0/auth/logout', undefined, reply);
    return reply.redirect('/login', 303);
  });

  await app.register(projectPages, ctx);
  await app.register(issuePages, ctx);
  await app.register(rulePages, ctx);
  await app.register(tokenPages, ctx);
};

import { forbidden, notFound, unauthorized } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import { hashToken, newToken, tokenJson } from '../../auth/api-tokens.ts';
import { sessionUser } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { createTokenSchema, listTokensSchema, revokeTokenSchema } from '../../schemas/api-tokens.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Sentry's paths, trailing slash included, which its clients send. */
export const apiTokenRoutes: FastifyPluginAsync<AppContext> = async (app, { db }) => {
  // Tokens are managed with a session only: a leaked token must not be able to mint others.
  app.addHook('onRequest', async (request) => {
    const user = await sessionUser(db, request);
    if (!user) {
      if (request.headers.authorization)
        throw forbidden('auth tokens are managed from a signed-in session, not with a token');
      throw unauthorized('sign in first: this route needs a valid trove_session cookie');
    }
    request.user = user;
  });

  app.post<{ Body: { name?: string } }>('/api/0/api-tokens/', { schema: createTokenSchema }, async (request, reply) => {
    const token = newToken();
    const row = await db.prisma.apiToken.create({
      data: {
        userId: request.user?.id as string,
        name: request.body?.name?.trim() || 'sentry-cli',
        tokenHash: hashToken(token),
        lastChars: token.slice(-4),
      },
    });
    return reply.code(201).send({ ...tokenJson(row), token });
  });

  app.get('/api/0/api-tokens/', { schema: listTokensSchema }, async (request) => {
    const rows = await db.prisma.apiToken.findMany({
      where: { userId: request.user?.id as string },
      orderBy: { createdAt: 'desc' },
    });
    return rows.map(tokenJson);
  });

  app.delete<{ Params: { id: string } }>(
    '/api/0/api-tokens/:id/',
    { schema: revokeTokenSchema },
    async (request, reply) => {
      const { id } = request.params;
      const gone = UUID.test(id)
        ? await db.prisma.apiToken.deleteMany({ where: { id, userId: request.user?.id as string } })
        : { count: 0 };
      if (gone.count === 0) throw notFound(`no auth token with id "${id}"`);
      return reply.code(204).send();
    },
  );
};

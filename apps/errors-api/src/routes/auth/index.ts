import { forbidden, tooManyRequests, unauthorized } from '@trove/service-kit';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { decoyHash, hashPassword, verifyPassword } from '../../auth/passwords.ts';
import {
  clearSessionCookie,
  requireUser,
  type SessionUser,
  sessionUser,
  startSession,
  userJson,
} from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { changePasswordSchema, loginSchema, logoutSchema, meSchema } from '../../schemas/auth.ts';
import { apiTokenRoutes } from './api-tokens.ts';

export const authRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const { db, config, state } = ctx;
  const requireSession = requireUser(db);
  await app.register(apiTokenRoutes, ctx);

  async function limitLogins(request: FastifyRequest, email: string) {
    const rule = { limit: config.LOGIN_ATTEMPTS_PER_MINUTE, windowMs: 60_000 };
    // Per address and per account, so neither one client nor a botnet on one account can guess freely.
    for (const key of [`login:ip:${request.ip}`, `login:email:${email}`]) {
      const result = await state.rateLimit(key, rule);
      if (!result.allowed)
        throw tooManyRequests('too many sign-in attempts; wait and try again', result.retryAfterMs / 1000);
    }
  }

  app.post<{ Body: { email: string; password: string } }>(
    '/api/0/auth/login',
    { schema: loginSchema },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      await limitLogins(request, email);
      const user = await db.prisma.user.findUnique({ where: { email } });
      const valid = await verifyPassword(request.body.password, user?.passwordHash ?? (await decoyHash));
      if (!user || !valid) throw unauthorized('wrong e-mail or password');
      await startSession(db, config, request, reply, user.id);
      return { user: userJson(user) };
    },
  );

  app.post('/api/0/auth/logout', { schema: logoutSchema }, async (request, reply) => {
    if (await sessionUser(db, request)) await db.prisma.session.deleteMany({ where: { id: request.sessionId } });
    clearSessionCookie(config, request, reply);
    return { ok: true };
  });

  app.get('/api/0/auth/me', { schema: meSchema, onRequest: requireSession }, async (request) => ({
    user: request.user as SessionUser,
  }));

  app.post<{ Body: { current_password: string; new_password: string } }>(
    '/api/0/auth/change-password',
    { schema: changePasswordSchema, onRequest: requireSession },
    async (request) => {
      const { id } = request.user as SessionUser;
      const user = await db.prisma.user.findUniqueOrThrow({ where: { id } });
      if (!(await verifyPassword(request.body.current_password, user.passwordHash))) {
        throw forbidden('current_password is wrong');
      }
      const passwordHash = await hashPassword(request.body.new_password);
      // Other sessions may be someone who learnt the old password: end them, keep this one.
      await db.prisma.$transaction([
        db.prisma.user.update({ where: { id }, data: { passwordHash } }),
        db.prisma.session.deleteMany({ where: { userId: id, id: { not: request.sessionId } } }),
      ]);
      return { ok: true };
    },
  );
};

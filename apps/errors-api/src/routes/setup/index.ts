import { conflict } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import { hashPassword } from '../../auth/passwords.ts';
import { startSession, userJson } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { dsnOf, publicBase } from '../../projects/project-json.ts';
import { newDsnKey } from '../../projects/slugs.ts';
import { setupSchema, setupStatusSchema } from '../../schemas/auth.ts';

const SETUP_MARKER = 'setup_completed_at';

export const setupRoutes: FastifyPluginAsync<AppContext> = async (app, { db, config }) => {
  app.get('/api/0/setup', { schema: setupStatusSchema }, async () => ({
    needs_setup: (await db.prisma.user.count()) === 0,
  }));

  app.post<{ Body: { email: string; name: string; password: string } }>(
    '/api/0/setup',
    { schema: setupSchema },
    async (request, reply) => {
      const { email, name, password } = request.body;
      const passwordHash = await hashPassword(password);
      const created = await db.prisma
        .$transaction(async (tx) => {
          if ((await tx.user.count()) > 0) return undefined;
          // The marker's primary key makes two setups racing each other fail one of them.
          await tx.serviceMeta.create({ data: { key: SETUP_MARKER, value: new Date().toISOString() } });
          const user = await tx.user.create({
            data: { email: email.trim().toLowerCase(), name: name.trim(), role: 'admin', passwordHash },
          });
          const project = await tx.project.create({ data: { name: 'Default', slug: 'default', dsnKey: newDsnKey() } });
          return { user, project };
        })
        .catch((err: { code?: string }) => {
          if (err.code === 'P2002') return undefined;
          throw err;
        });
      if (!created) throw conflict('setup is already done: sign in instead');
      // Setup signs the new admin in, so the dashboard can go straight on.
      await startSession(db, config, request, reply, created.user.id);
      return reply.code(201).send({
        user: userJson(created.user),
        project_slug: created.project.slug,
        dsn: dsnOf(publicBase(config, request), created.project),
      });
    },
  );
};

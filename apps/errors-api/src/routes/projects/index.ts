import { conflict } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import { requireUser } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { projectJson, publicBase } from '../../projects/project-json.ts';
import { createProject, findProject } from '../../projects/project-store.ts';
import { newDsnKey } from '../../projects/slugs.ts';
import {
  archiveProjectSchema,
  createProjectSchema,
  deleteProjectSchema,
  getProjectSchema,
  listProjectsSchema,
  renameProjectSchema,
  rotateDsnSchema,
  unarchiveProjectSchema,
} from '../../schemas/projects.ts';

type SlugParams = { Params: { slug: string } };

export const projectRoutes: FastifyPluginAsync<AppContext> = async (app, { db, config, projectKeys }) => {
  app.addHook('onRequest', requireUser(db));

  app.get<{ Querystring: { archived?: boolean } }>(
    '/api/0/projects',
    { schema: listProjectsSchema },
    async (request) => {
      const { archived } = request.query;
      const where = archived === undefined ? {} : { archivedAt: archived ? { not: null } : null };
      const projects = await db.prisma.project.findMany({ where, orderBy: { createdAt: 'asc' } });
      const base = publicBase(config, request);
      return projects.map((p) => projectJson(p, base));
    },
  );

  app.post<{ Body: { name: string; slug?: string } }>(
    '/api/0/projects',
    { schema: createProjectSchema },
    async (request, reply) => {
      const project = await createProject(db, request.body.name.trim(), request.body.slug);
      return reply.code(201).send(projectJson(project, publicBase(config, request)));
    },
  );

  app.get<SlugParams>('/api/0/projects/:slug', { schema: getProjectSchema }, async (request) =>
    projectJson(await findProject(db, request.params.slug), publicBase(config, request)),
  );

  app.patch<SlugParams & { Body: { name: string } }>(
    '/api/0/projects/:slug',
    { schema: renameProjectSchema },
    async (request) => {
      const { id } = await findProject(db, request.params.slug);
      const project = await db.prisma.project.update({ where: { id }, data: { name: request.body.name.trim() } });
      return projectJson(project, publicBase(config, request));
    },
  );

  app.delete<SlugParams>('/api/0/projects/:slug', { schema: deleteProjectSchema }, async (request, reply) => {
    const project = await findProject(db, request.params.slug);
    if (!project.archivedAt) {
      throw conflict(`project "${project.slug}" is active; archive it before deleting it for good`);
    }
    // Foreign keys cascade to events, issues, rules and alert history in the same statement;
    // the condition guards against an unarchive that raced this request.
    const { count } = await db.prisma.project.deleteMany({ where: { id: project.id, archivedAt: { not: null } } });
    if (count === 0) throw conflict(`project "${project.slug}" was unarchived; archive it before deleting it`);
    await projectKeys.invalidate(project.id);
    return reply.code(204).send();
  });

  app.post<SlugParams>('/api/0/projects/:slug/archive', { schema: archiveProjectSchema }, async (request) => {
    const { id, archivedAt } = await findProject(db, request.params.slug);
    const project = await db.prisma.project.update({ where: { id }, data: { archivedAt: archivedAt ?? new Date() } });
    return projectJson(project, publicBase(config, request));
  });

  app.delete<SlugParams>('/api/0/projects/:slug/archive', { schema: unarchiveProjectSchema }, async (request) => {
    const { id } = await findProject(db, request.params.slug);
    const project = await db.prisma.project.update({ where: { id }, data: { archivedAt: null } });
    return projectJson(project, publicBase(config, request));
  });

  app.post<SlugParams>('/api/0/projects/:slug/rotate-dsn', { schema: rotateDsnSchema }, async (request) => {
    const { id } = await findProject(db, request.params.slug);
    const project = await db.prisma.project.update({ where: { id }, data: { dsnKey: newDsnKey() } });
    await projectKeys.invalidate(id);
    return projectJson(project, publicBase(config, request));
  });
};

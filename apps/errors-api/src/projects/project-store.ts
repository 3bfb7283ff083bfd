import { conflict, notFound } from '@trove/service-kit';
import type { ErrorsDatabase } from '../db.ts';
import type { ProjectRecord } from './project-json.ts';
import { newDsnKey, slugify } from './slugs.ts';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

export async function findProject(db: ErrorsDatabase, slug: string): Promise<ProjectRecord> {
  const project = await db.prisma.project.findUnique({ where: { slug } });
  if (!project) throw notFound(`no project with slug "${slug}"`);
  return project;
}

/**
 * Creates a project. An explicit slug that is taken is a conflict; a slug derived from the name
 * gets a numeric suffix instead, since the caller never chose it.
 */
export async function createProject(db: ErrorsDatabase, name: string, slug?: string): Promise<ProjectRecord> {
  const base = slug ?? slugify(name);
  for (let attempt = 1; attempt <= 50; attempt++) {
    const candidate = attempt === 1 ? base : `${base}-${attempt}`;
    try {
      return await db.prisma.project.create({ data: { name, slug: candidate, dsnKey: newDsnKey() } });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (slug !== undefined) throw conflict(`a project with slug "${slug}" already exists`);
    }
  }
  throw conflict(`too many projects are named like "${name}"; give a slug`);
}

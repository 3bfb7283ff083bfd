import type { FastifyRequest } from 'fastify';
import type { ErrorsConfig } from '../config.ts';

export interface ProjectRecord {
  id: number;
  name: string;
  slug: string;
  dsnKey: string;
  archivedAt: Date | null;
  createdAt: Date;
}

/** Where SDKs reach this service: PUBLIC_URL, or else the scheme and host the dashboard was called on. */
export function publicBase(config: ErrorsConfig, request: FastifyRequest): URL {
  return new URL(config.PUBLIC_URL ?? `${request.protocol}://${request.host}`);
}

export function dsnOf(base: URL, project: { id: number; dsnKey: string }): string {
  const url = new URL(base.toString());
  url.username = project.dsnKey;
  url.password = '';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${project.id}`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

export function projectJson(project: ProjectRecord, base: URL) {
  return {
    id: project.id,
    name: project.name,
    slug: project.slug,
    dsn: dsnOf(base, project),
    archived_at: project.archivedAt?.toISOString() ?? null,
    created_at: project.createdAt.toISOString(),
  };
}

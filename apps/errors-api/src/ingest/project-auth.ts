import { timingSafeEqual } from 'node:crypto';
import { forbidden, notFound, unauthorized } from '@trove/service-kit';
import type { FastifyRequest } from 'fastify';
import type { IngestProject, ProjectKeys } from '../projects/project-keys.ts';

const SENTRY_KEY = /sentry_key\s*=\s*([^,\s]+)/i;

/**
 * The key from any place an SDK puts it: the X-Sentry-Auth header, `Authorization: Bearer`, or the
 * `sentry_key` query parameter (what the Node SDK uses). The envelope header's `dsn` is read later.
 */
export function keyFromRequest(request: FastifyRequest): string | undefined {
  const sentryAuth = request.headers['x-sentry-auth'];
  if (typeof sentryAuth === 'string') {
    const match = SENTRY_KEY.exec(sentryAuth);
    if (match?.[1]) return match[1];
  }
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (bearer?.[1]) return bearer[1];
    const match = SENTRY_KEY.exec(authorization);
    if (match?.[1]) return match[1];
  }
  const query = request.query as Record<string, unknown> | undefined;
  if (typeof query?.sentry_key === 'string' && query.sentry_key !== '') return query.sentry_key;
  return undefined;
}

/** The public key of a DSN such as `https://KEY@host/1`, as used by the SDK's tunnel option. */
export function keyFromDsn(dsn: unknown): string | undefined {
  if (typeof dsn !== 'string') return undefined;
  try {
    return new URL(dsn).username || undefined;
  } catch {
    return undefined;
  }
}

export async function findIngestProject(keys: ProjectKeys, rawId: string): Promise<IngestProject> {
  const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : Number.NaN;
  const project = Number.isNaN(id) ? undefined : await keys.find(id);
  if (!project) throw notFound(`no project with id ${rawId}`);
  return project;
}

export function checkKey(project: IngestProject, key: string | undefined): void {
  if (key === undefined) {
    throw unauthorized('missing project key: send X-Sentry-Auth, Authorization: Bearer, or ?sentry_key=');
  }
  const given = Buffer.from(key);
  const expected = Buffer.from(project.dsnKey);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw forbidden('the project key is not valid for this project (it may have been rotated)');
  }
}

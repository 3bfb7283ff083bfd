import { randomUUID } from 'node:crypto';
import { unauthorized } from '@trove/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorsConfig } from '../config.ts';
import type { ErrorsDatabase } from '../db.ts';
import { tokenUser } from './api-tokens.ts';

export const SESSION_COOKIE = 'trove_session';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user?: SessionUser;
    sessionId?: string;
  }
}

export const userJson = (u: SessionUser): SessionUser => ({ id: u.id, email: u.email, name: u.name, role: u.role });

function secure(config: ErrorsConfig, request: FastifyRequest): boolean {
  if (config.COOKIE_SECURE === 'always') return true;
  if (config.COOKIE_SECURE === 'never') return false;
  return request.protocol === 'https';
}

export async function startSession(
  db: ErrorsDatabase,
  config: ErrorsConfig,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  const id = randomUUID();
  const ttlMs = config.SESSION_TTL_HOURS * 3_600_000;
  await db.prisma.session.create({ data: { id, userId, expiresAt: new Date(Date.now() + ttlMs) } });
  // Expired sessions are swept here rather than by a timer: logins are rare and this keeps the table small.
  await db.prisma.session.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  reply.setCookie(SESSION_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(config, request),
    maxAge: Math.floor(ttlMs / 1000),
  });
}

export function clearSessionCookie(config: ErrorsConfig, request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure(config, request) });
}

/** The user of the request's session cookie, or undefined when it has none that is valid. */
export async function sessionUser(db: ErrorsDatabase, request: FastifyRequest): Promise<SessionUser | undefined> {
  const id = request.cookies[SESSION_COOKIE];
  if (!id || !UUID.test(id)) return undefined;
  const session = await db.prisma.session.findUnique({ where: { id }, include: { user: true } });
  if (!session || session.expiresAt.getTime() <= Date.now()) return undefined;
  request.sessionId = id;
  return userJson(session.user);
}

/**
 * An onRequest hook (before the body is even read) for routes that need a signed-in user: a
 * session cookie, or an auth token (`Authorization: Bearer`, as sentry-cli and CI send it).
 */
export function requireUser(db: ErrorsDatabase) {
  return async (request: FastifyRequest) => {
    const user = (await sessionUser(db, request)) ?? (await tokenUser(db, request));
    if (!user) {
      throw unauthorized(
        'sign in first: this route needs a valid trove_session cookie or an auth token (Authorization: Bearer)',
      );
    }
    request.user = user;
  };
}

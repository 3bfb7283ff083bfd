import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ErrorsDatabase } from '../db.ts';
import { type SessionUser, userJson } from './sessions.ts';

/**
 * Auth tokens for sentry-cli and CI, sent as `Authorization: Bearer <token>`. A token is 64 hex
 * characters, the shape of Sentry's user auth tokens, which sentry-cli takes as they are.
 */
const TOKEN = /^[0-9a-f]{64}$/;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** The bearer token of a request, when it has one shaped like ours. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header && /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match?.[1]?.toLowerCase();
  return token && TOKEN.test(token) ? token : undefined;
}

// Writing last_used_at on every call would turn each upload chunk into a write; once a minute is enough.
const USED_RESOLUTION_MS = 60_000;

/** The user an auth token belongs to, or undefined when the request carries no valid token. */
export async function tokenUser(db: ErrorsDatabase, request: FastifyRequest): Promise<SessionUser | undefined> {
  const token = bearerToken(request);
  if (!token) return undefined;
  const row = await db.prisma.apiToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  if (!row) return undefined;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > USED_RESOLUTION_MS) {
    await db.prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return userJson(row.user);
}

export interface TokenRow {
  id: string;
  name: string;
  lastChars: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A token as lists show it: never the token itself, only its last characters. */
export const tokenJson = (t: TokenRow) => ({
  id: t.id,
  name: t.name,
  token_last_characters: t.lastChars,
  date_created: t.createdAt.toISOString(),
  date_last_used: t.lastUsedAt?.toISOString() ?? null,
});

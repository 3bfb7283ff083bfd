import { createHash, timingSafeEqual } from 'node:crypto';
import { forbidden, unauthorized } from '@trove/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * What a route needs: `read` (any valid token), `write` (a full token), `health` (answers
 * everyone, but only a valid token sees more than the status) or `public` (probes, metrics).
 */
export type RouteAccess = 'read' | 'write' | 'health' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** For `/routes`: what the route does, and the names of its request and response types. */
    description?: string;
    requestType?: string;
    responseType?: string;
  }
  interface FastifyRequest {
    /** `full` or `read` for a valid token; `anonymous` without one; `open` when authentication is off. */
    caller: 'full' | 'read' | 'anonymous' | 'open';
  }
}

const digest = (token: string) => createHash('sha256').update(token).digest();

export interface AuthTokens {
  full: readonly string[];
  readOnly: readonly string[];
}

/** Bearer-token authentication; off when no token is configured. Compares digests in constant time. */
export function registerAuth(app: FastifyInstance, tokens: AuthTokens): void {
  const full = tokens.full.map(digest);
  const readOnly = tokens.readOnly.map(digest);
  const enabled = full.length + readOnly.length > 0;
  app.decorateRequest('caller', 'open');

  const identify = (request: FastifyRequest): FastifyRequest['caller'] => {
    if (!enabled) return 'open';
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return 'anonymous';
    const given = digest(match[1] as string);
    if (full.some((d) => timingSafeEqual(d, given))) return 'full';
    if (readOnly.some((d) => timingSafeEqual(d, given))) return 'read';
    return 'anonymous';
  };

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access ?? 'public';
    request.caller = identify(request);
    if (access === 'public' || access === 'health' || request.caller === 'open') return;
    if (request.caller === 'anonymous')
      throw unauthorized('missing or invalid bearer token (Authorization: Bearer <token>)');
    if (access === 'write' && request.caller === 'read')
      throw forbidden('this token is read-only; writes need a full-access token');
  });
}

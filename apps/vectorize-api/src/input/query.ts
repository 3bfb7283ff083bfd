/**
 * Query parameters, checked as strictly as form fields: a parameter the route does not take (a
 * typo such as `downlaod=1`) or one sent twice is a 400 naming it, not silently ignored.
 */
import { badRequest } from '@trove/service-kit';

export function readQuery(query: unknown, allowed: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (!allowed.includes(name)) {
      const choices = allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'this route takes none';
      throw badRequest(`unknown query parameter "${name}"; ${choices}`);
    }
    if (typeof value !== 'string') throw badRequest(`query parameter "${name}" was sent more than once`);
    params[name] = value.trim();
  }
  return params;
}

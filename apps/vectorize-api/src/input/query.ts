/**
 * Query parameters, checked as strictly as form fields: a parameter the route does not take (a
 * typo such as `downlaod=1`) is a 400 naming it, not silently ignored. `allowed` is the route
 * schema's querystring properties, each a string there, so a parameter sent twice (an array) has
 * already been refused by the schema.
 */
import { badRequest } from '@trove/service-kit';

export function readQuery(query: unknown, allowed: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, string>)) {
    if (!allowed.includes(name)) {
      const choices = allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'this route takes none';
      throw badRequest(`unknown query parameter "${name}"; ${choices}`);
    }
    params[name] = value.trim();
  }
  return params;
}

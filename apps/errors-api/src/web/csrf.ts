import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Form tokens against cross-site request forgery. A signed-in form carries an HMAC keyed by the
 * session id: only a page that could read the (httpOnly) session can know it, and every replica
 * computes the same token without a shared secret. Forms used before a session exists (sign-in,
 * setup) use a random cookie echoed in the form instead (double submit).
 */
export const FORM_COOKIE = 'trove_form';

export const sessionToken = (sessionId: string) =>
  createHmac('sha256', sessionId).update('trove-errors-form').digest('base64url');

export const newFormToken = () => randomBytes(24).toString('base64url');

export function sameToken(a: unknown, b: string | undefined): boolean {
  if (typeof a !== 'string' || b === undefined) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

import { badRequest, forbidden } from '@trove/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionUser } from '../auth/sessions.ts';
import type { ErrorsDatabase } from '../db.ts';
import { FORM_COOKIE, sameToken, sessionToken } from './csrf.ts';
import type { Html } from './html.ts';
import type { Viewer } from './layout.ts';

export type Form = Record<string, string | string[]>;

/** Parses an HTML form body; a field sent more than once (checkboxes) becomes a list. */
export function parseForm(body: string): Form {
  const form: Form = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const seen = form[key];
    form[key] = seen === undefined ? value : [seen, value].flat();
  }
  return form;
}

export const field = (form: Form, name: string): string => {
  const value = form[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

export const fields = (form: Form, name: string): string[] => [form[name] ?? []].flat();

export function sendPage(reply: FastifyReply, markup: Html, status = 200) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(markup.value);
}

/** The signed-in viewer, or undefined after sending the browser to sign in. */
export async function viewerOrRedirect(
  db: ErrorsDatabase,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Viewer | undefined> {
  const user = await sessionUser(db, request);
  if (!user) {
    const next = encodeURIComponent(request.url);
    await reply.redirect(`/login?next=${next}`, 303);
    return undefined;
  }
  return { name: user.name, email: user.email, csrf: sessionToken(request.sessionId as string) };
}

/** Every form that changes something carries the token of its session, or of its form cookie. */
export function checkFormToken(request: FastifyRequest, form: Form | null | undefined): void {
  // A JSON body can be anything, `null` included (found by the route fuzz: it answered 500).
  const sent = form?._csrf;
  if (typeof sent !== 'string') throw badRequest('this form has no _csrf token: reload the page and try again');
  const session = request.sessionId;
  const expected = session ? sessionToken(session) : request.cookies[FORM_COOKIE];
  if (!sameToken(sent, expected) && !sameToken(sent, request.cookies[FORM_COOKIE])) {
    throw forbidden('this form has expired or came from another site: reload the page and try again');
  }
}

/** A same-site path to go back to after signing in; anything else goes to the project list. */
export function safeNext(raw: unknown): string {
  return typeof raw === 'string' && raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\')
    ? raw
    : '/projects';
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface ApiAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON, read by page code that knows its shape
  json: any;
}

/**
 * The dashboard calls errors-api's own JSON API in-process, as the signed-in user, so every rule
 * of the API (validation, permissions, side effects such as live updates) holds for the pages
 * without a second copy of it.
 */
export async function callApi(
  app: FastifyInstance,
  request: FastifyRequest,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  reply?: FastifyReply,
): Promise<ApiAnswer> {
  const res = await app.inject({
    method,
    url,
    remoteAddress: request.ip,
    headers: {
      host: request.host,
      cookie: request.headers.cookie ?? '',
      'x-request-id': request.id,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  // Sign-in, setup and sign-out answer with the session cookie for the browser.
  const cookies = res.headers['set-cookie'];
  if (reply && cookies) reply.header('set-cookie', cookies);
  const text = res.body;
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

/** The API's error message, for showing above a form. */
export const apiError = (answer: ApiAnswer) =>
  typeof answer.json?.error === 'string' ? (answer.json.error as string) : `request failed (${answer.status})`;

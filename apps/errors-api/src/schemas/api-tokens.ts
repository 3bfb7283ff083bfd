import { commonErrors, errorResponse, sessionSecurity } from './common.ts';

const tokenSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    token_last_characters: { type: 'string', description: 'The last 4 characters, to tell tokens apart' },
    date_created: { type: 'string', format: 'date-time' },
    date_last_used: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['id', 'name', 'token_last_characters', 'date_created', 'date_last_used'],
} as const;

const base = { tags: ['auth'], security: sessionSecurity } as const;

export const createTokenSchema = {
  ...base,
  summary: 'Create an auth token for sentry-cli or CI (as Sentry answers: the token is shown only here)',
  description:
    'Needs a signed-in session (a token cannot make tokens). Send the token as `Authorization: Bearer <token>`: it works on every dashboard route and on the source-map upload routes sentry-cli calls. Only its sha256 is stored.',
  body: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 100, description: 'What it is for, e.g. "CI uploads"' },
      scopes: {
        type: 'array',
        items: { type: 'string', maxLength: 64 },
        maxItems: 50,
        description: "Accepted for Sentry clients' sake and ignored: a token can do what its user can",
      },
    },
    additionalProperties: false,
  },
  response: {
    201: { type: 'object', properties: { ...tokenSchema.properties, token: { type: 'string' } }, required: ['token'] },
    ...commonErrors,
    403: errorResponse,
  },
} as const;

export const listTokensSchema = {
  ...base,
  summary: "The signed-in user's auth tokens, newest first (never the tokens themselves)",
  response: { 200: { type: 'array', items: tokenSchema }, ...commonErrors },
} as const;

export const revokeTokenSchema = {
  ...base,
  summary: 'Revoke an auth token: it stops working at once',
  params: {
    type: 'object',
    properties: { id: { type: 'string', maxLength: 64 } },
    required: ['id'],
  },
  response: { 204: { type: 'null', description: 'Revoked' }, ...commonErrors },
} as const;

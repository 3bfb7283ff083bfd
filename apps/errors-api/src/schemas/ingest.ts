import { errorResponse } from './common.ts';

const params = {
  type: 'object',
  properties: { project_id: { type: 'string', description: 'Numeric project id from the DSN' } },
  required: ['project_id'],
} as const;

const querystring = {
  type: 'object',
  properties: {
    sentry_key: { type: 'string', description: 'Project key (what the Node SDK sends)' },
    sentry_version: { type: 'string' },
    sentry_client: { type: 'string' },
  },
} as const;

const responses = {
  200: {
    description: 'Stored (or nothing to store); `id` is the event id',
    type: 'object',
    properties: { id: { type: 'string' } },
  },
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  413: errorResponse,
  415: errorResponse,
  429: errorResponse,
} as const;

export const envelopeRouteSchema = {
  tags: ['ingest'],
  summary: 'Ingest an envelope (Sentry protocol)',
  description:
    'Body: a Sentry envelope, any or no Content-Type, optionally gzip/deflate/br encoded. Key from X-Sentry-Auth, Authorization: Bearer, ?sentry_key= or the envelope header dsn.',
  params,
  querystring,
  response: responses,
} as const;

export const storeRouteSchema = {
  tags: ['ingest'],
  summary: 'Ingest one JSON event (legacy store endpoint)',
  description: 'Body: one event as JSON, or base64 of deflated JSON (old raven clients).',
  params,
  querystring,
  response: responses,
} as const;

export const corsPreflightSchema = {
  tags: ['ingest'],
  summary: 'CORS preflight for browser SDKs',
  params,
  response: { 204: { type: 'null', description: 'Allowed from any origin' } },
} as const;

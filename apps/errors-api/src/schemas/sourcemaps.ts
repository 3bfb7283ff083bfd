import { commonErrors, errorResponse, sessionSecurity } from './common.ts';

/** sentry-cli's routes: its shapes (camelCase included), authenticated with an auth token. */
const base = { tags: ['source maps'], security: [...sessionSecurity, { token: [] }] } as const;
const orgParams = {
  type: 'object',
  properties: {
    org: { type: 'string', maxLength: 64, description: 'The organization: `ORGANIZATION_SLUG` (default `trove`)' },
  },
  required: ['org'],
} as const;
const sha1 = { type: 'string', pattern: '^[0-9a-f]{40}$' } as const;

export const chunkOptionsSchema = {
  ...base,
  summary: 'How sentry-cli should upload: chunk size, limits, hash and what this server accepts',
  params: orgParams,
  response: {
    200: {
      type: 'object',
      properties: {
        url: { type: 'string' },
        chunkSize: { type: 'integer' },
        chunksPerRequest: { type: 'integer' },
        maxFileSize: { type: 'integer' },
        maxRequestSize: { type: 'integer' },
        maxWait: { type: 'integer' },
        concurrency: { type: 'integer' },
        hashAlgorithm: { type: 'string' },
        compression: { type: 'array', items: { type: 'string' } },
        accept: { type: 'array', items: { type: 'string' } },
      },
    },
    ...commonErrors,
  },
} as const;

export const chunkUploadSchema = {
  ...base,
  summary: 'Upload chunks: multipart parts named `file` (or `file_gzip`, gzip-compressed), each named by its sha1',
  params: orgParams,
  consumes: ['multipart/form-data'],
  response: { 200: { type: 'object', properties: {} }, ...commonErrors },
} as const;

const assembleResponse = {
  type: 'object',
  properties: {
    state: { type: 'string', enum: ['ok', 'not_found', 'error', 'created', 'assembling'] },
    missingChunks: { type: 'array', items: { type: 'string' } },
    detail: { type: ['string', 'null'] },
  },
  required: ['state', 'missingChunks'],
} as const;

export const assembleBundleSchema = {
  ...base,
  summary: 'Assemble uploaded chunks into an artifact bundle for projects (answers the chunks still missing)',
  params: orgParams,
  body: {
    type: 'object',
    properties: {
      checksum: sha1,
      chunks: { type: 'array', items: sha1, maxItems: 10_000 },
      projects: { type: 'array', items: { type: 'string', maxLength: 64 }, minItems: 1, maxItems: 100 },
      version: { type: 'string', minLength: 1, maxLength: 200, description: 'Release, for uploads without debug ids' },
      dist: { type: 'string', minLength: 1, maxLength: 64 },
    },
    required: ['checksum', 'chunks', 'projects'],
  },
  response: { 200: assembleResponse, ...commonErrors },
} as const;

export const assembleReleaseSchema = {
  ...base,
  summary: "Assemble uploaded chunks into a bundle of a release's files (the older release-based upload)",
  params: {
    type: 'object',
    properties: { org: orgParams.properties.org, version: { type: 'string', maxLength: 200 } },
    required: ['org', 'version'],
  },
  body: {
    type: 'object',
    properties: { checksum: sha1, chunks: { type: 'array', items: sha1, maxItems: 10_000 } },
    required: ['checksum', 'chunks'],
  },
  response: { 200: assembleResponse, ...commonErrors },
} as const;

export const newReleaseSchema = {
  ...base,
  summary: 'Create a release in projects (sentry-cli releases new)',
  params: orgParams,
  body: {
    type: 'object',
    properties: {
      version: { type: 'string', minLength: 1, maxLength: 200 },
      projects: { type: 'array', items: { type: 'string', maxLength: 64 }, minItems: 1, maxItems: 100 },
    },
    required: ['version', 'projects'],
  },
  response: {
    201: {
      type: 'object',
      properties: {
        version: { type: 'string' },
        shortVersion: { type: 'string' },
        dateCreated: { type: 'string', format: 'date-time' },
        dateReleased: { type: 'null' },
        lastEvent: { type: 'null' },
        newGroups: { type: 'integer' },
        projects: {
          type: 'array',
          items: { type: 'object', properties: { slug: { type: 'string' }, name: { type: 'string' } } },
        },
      },
    },
    ...commonErrors,
    409: errorResponse,
  },
} as const;

import { commonErrors, errorResponse, sessionSecurity, slugParams } from './common.ts';

export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$';

export const projectSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'Numeric id, the last segment of the DSN' },
    name: { type: 'string' },
    slug: { type: 'string' },
    dsn: { type: 'string' },
    archived_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'name', 'slug', 'dsn', 'archived_at', 'created_at'],
} as const;

const name = { type: 'string', minLength: 1, maxLength: 100 } as const;
const base = { tags: ['projects'], security: sessionSecurity } as const;
const one = { 200: projectSchema, ...commonErrors } as const;

export const listProjectsSchema = {
  ...base,
  summary: 'All projects, active and archived',
  querystring: {
    type: 'object',
    properties: { archived: { type: 'boolean', description: 'Only archived (true) or only active (false)' } },
    additionalProperties: false,
  },
  response: { 200: { type: 'array', items: projectSchema }, 401: errorResponse },
} as const;

export const createProjectSchema = {
  ...base,
  summary: 'Create a project; the slug is derived from the name when not given',
  body: {
    type: 'object',
    properties: { name, slug: { type: 'string', pattern: SLUG_PATTERN } },
    required: ['name'],
    additionalProperties: false,
  },
  response: { 201: projectSchema, ...commonErrors, 409: errorResponse },
} as const;

export const getProjectSchema = { ...base, summary: 'Project detail with its DSN', params: slugParams, response: one };

export const renameProjectSchema = {
  ...base,
  summary: 'Rename a project (its slug stays)',
  params: slugParams,
  body: { type: 'object', properties: { name }, required: ['name'], additionalProperties: false },
  response: one,
} as const;

export const deleteProjectSchema = {
  ...base,
  summary: 'Delete an archived project for good, with its events, issues, rules and alert history',
  params: slugParams,
  response: { 204: { type: 'null', description: 'Deleted' }, ...commonErrors, 409: errorResponse },
} as const;

export const archiveProjectSchema = {
  ...base,
  summary: 'Archive a project (it keeps ingesting)',
  params: slugParams,
  response: one,
} as const;
export const unarchiveProjectSchema = { ...base, summary: 'Unarchive a project', params: slugParams, response: one };
export const rotateDsnSchema = {
  ...base,
  summary: 'Give the project a new DSN key; the old key stops working at once',
  params: slugParams,
  response: one,
} as const;

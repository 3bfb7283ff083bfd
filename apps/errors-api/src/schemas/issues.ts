import { LEVELS } from '../ingest/event-shape.ts';
import { SORTS } from '../issues/sorts.ts';
import {
  anyObject,
  commonErrors,
  idParams,
  pageOf,
  pageQueryProperties,
  sessionSecurity,
  slugParams,
} from './common.ts';

export const STATUSES = ['unresolved', 'resolved', 'ignored'] as const;

export const issueSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    project: { type: 'string', description: 'Project slug' },
    title: { type: 'string' },
    culprit: { type: ['string', 'null'] },
    level: { type: 'string', enum: LEVELS },
    status: { type: 'string', enum: STATUSES },
    count: { type: 'integer' },
    first_seen: { type: 'string', format: 'date-time' },
    last_seen: { type: 'string', format: 'date-time' },
    first_release: { type: ['string', 'null'], description: 'Release of its first event' },
    last_release: { type: ['string', 'null'], description: 'Release of its latest event that named one' },
    status_details: {
      type: 'object',
      description:
        'For an issue resolved in the next release: `{in_next_release: true, after_release}`; events of `after_release` keep it resolved, any other release reopens it. Else `{}`',
      properties: { in_next_release: { type: 'boolean' }, after_release: { type: 'string' } },
    },
  },
  required: ['id', 'project', 'title', 'level', 'status', 'count', 'first_seen', 'last_seen'],
} as const;

const issueDetailSchema = {
  type: 'object',
  properties: {
    ...issueSchema.properties,
    fingerprint: { type: 'string', description: 'Hash of the grouping components' },
    grouping: {
      type: 'object',
      description: 'Why events grouped: the method and the components that were hashed',
      properties: {
        method: { type: 'string', enum: ['fingerprint', 'stacktrace', 'exception', 'message', 'fallback'] },
        components: { type: 'array', items: { type: 'string' } },
      },
    },
    latest_event: { ...anyObject, nullable: true, description: 'Payload of the newest event' },
  },
  required: [...issueSchema.required, 'fingerprint', 'grouping'],
} as const;

export const eventSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    event_id: { type: 'string' },
    level: { type: 'string' },
    title: { type: 'string' },
    release: { type: ['string', 'null'] },
    environment: { type: ['string', 'null'] },
    received_at: { type: 'string', format: 'date-time' },
    payload: anyObject,
  },
  required: ['id', 'event_id', 'level', 'title', 'received_at', 'payload'],
} as const;

const base = { tags: ['issues'], security: sessionSecurity } as const;

export const listIssuesSchema = {
  ...base,
  summary: 'Issues of a project, filtered by status, level, environment, release or a Sentry-style search, sorted',
  params: slugParams,
  querystring: {
    type: 'object',
    properties: {
      ...pageQueryProperties,
      status: { type: 'string', description: 'Comma-separated statuses, e.g. `unresolved,ignored`' },
      level: { type: 'string', description: 'Comma-separated levels, e.g. `error,fatal`' },
      query: {
        type: 'string',
        maxLength: 1000,
        description:
          'Sentry search syntax: `is:unresolved level:error release:1.2.0 environment:prod user.email:a@b.c key:value` and free text (title or culprit); `!key:value` negates, `key:[a,b]` is any of, quotes keep spaces. `is` takes unresolved, resolved, ignored; `level` and `first_release` read the issue, every other key a tag of its events',
      },
      sort: {
        type: 'string',
        enum: Object.keys(SORTS),
        default: 'date',
        description: 'date or last_seen (default), new or first_seen, freq or events, user or users',
      },
      environment: { type: 'string', maxLength: 200, description: 'Only issues with events of this environment' },
      release: { type: 'string', maxLength: 200, description: 'Only issues with events of this release' },
    },
    additionalProperties: false,
  },
  response: { 200: pageOf(issueSchema), ...commonErrors },
} as const;

export const searchIssuesSchema = {
  ...base,
  summary: 'Issues whose title contains `q` (case-insensitive)',
  params: slugParams,
  querystring: {
    type: 'object',
    properties: { q: { type: 'string', minLength: 1, maxLength: 200 }, ...pageQueryProperties },
    required: ['q'],
    additionalProperties: false,
  },
  response: { 200: pageOf(issueSchema), ...commonErrors },
} as const;

export const getIssueSchema = {
  ...base,
  summary: 'Issue detail, with its grouping components and latest event',
  params: idParams,
  response: { 200: issueDetailSchema, ...commonErrors },
} as const;

export const setStatusSchema = {
  ...base,
  summary: 'Set the status of an issue',
  params: idParams,
  body: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: STATUSES },
      in_next_release: {
        type: 'boolean',
        description:
          'With `resolved`: resolved in the next release. Events of the current release (its `last_release`) keep it resolved; an event of another release reopens it (a regression)',
      },
    },
    required: ['status'],
    additionalProperties: false,
  },
  response: { 200: issueSchema, ...commonErrors },
} as const;

export const issueEventsSchema = {
  ...base,
  summary: 'Events of an issue, newest first',
  params: idParams,
  querystring: {
    type: 'object',
    properties: {
      ...pageQueryProperties,
      environment: { type: 'string', maxLength: 200, description: 'Only events of this environment' },
      release: { type: 'string', maxLength: 200, description: 'Only events of this release' },
    },
    additionalProperties: false,
  },
  response: { 200: pageOf(eventSchema), ...commonErrors },
} as const;

import { commonErrors, idParams, pageOf, pageQueryProperties, sessionSecurity, slugParams } from './common.ts';

const releaseSchema = {
  type: 'object',
  properties: {
    version: { type: 'string' },
    date_created: { type: 'string', format: 'date-time', description: 'When it was created, or first seen' },
    first_event: { type: ['string', 'null'], format: 'date-time' },
    last_event: { type: ['string', 'null'], format: 'date-time' },
    event_count: { type: 'integer', description: 'Events that named it' },
    new_issues: { type: 'integer', description: 'Issues whose first event named it' },
  },
  required: ['version', 'date_created', 'first_event', 'last_event', 'event_count', 'new_issues'],
} as const;

export const listReleasesSchema = {
  tags: ['releases'],
  security: sessionSecurity,
  summary: 'Releases of a project, newest first, with their new-issue and event counts',
  params: slugParams,
  querystring: { type: 'object', properties: pageQueryProperties, additionalProperties: false },
  response: { 200: pageOf(releaseSchema), ...commonErrors },
} as const;

export const issueTagsSchema = {
  tags: ['issues'],
  security: sessionSecurity,
  summary: "Tags of an issue's events: each key with its most common values and how often each was seen",
  params: idParams,
  response: {
    200: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          key: { type: 'string' },
          total: { type: 'integer', description: 'Events with this tag' },
          values_seen: { type: 'integer', description: 'Distinct values' },
          top_values: {
            type: 'array',
            description: 'Up to 10, most seen first',
            items: {
              type: 'object',
              properties: {
                value: { type: 'string' },
                count: { type: 'integer' },
                first_seen: { type: 'string', format: 'date-time' },
                last_seen: { type: 'string', format: 'date-time' },
              },
            },
          },
        },
      },
    },
    ...commonErrors,
  },
} as const;

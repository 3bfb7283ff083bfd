import { LEVELS } from '../ingest/event-shape.ts';
import { commonErrors, idParams, sessionSecurity, slugParams } from './common.ts';
import { ACTION_TYPES, CONDITION_KEYS } from './rule-hints.ts';

const level = { type: 'string', enum: LEVELS } as const;

const conditionsSchema = {
  type: 'object',
  description: `Every key given must match; an empty object matches every event. Allowed keys: ${CONDITION_KEYS.join(', ')}. A key outside them is refused with the nearest allowed one named ("did you mean level?").`,
  properties: {
    level: {
      description: `Event level, or a list of levels: ${LEVELS.join(', ')}`,
      anyOf: [level, { type: 'array', items: level, minItems: 1 }],
    },
    min_count: { type: 'integer', minimum: 1, description: 'The issue has at least this many events' },
    title_contains: { type: 'string', minLength: 1, maxLength: 200, description: 'Case-insensitive' },
    new_issue: { type: 'boolean', description: 'Only for a new issue or a regression (a resolved issue reopening)' },
  },
  // Refused rather than stripped: a misspelt key would otherwise leave a rule that matches everything.
  additionalProperties: false,
  propertyNames: { enum: CONDITION_KEYS },
} as const;

const actionConfigSchema = {
  type: 'object',
  properties: { url: { type: 'string', format: 'uri', maxLength: 2048, description: 'http or https URL to POST to' } },
  required: ['url'],
  additionalProperties: false,
} as const;

export const ruleSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    project: { type: 'string', description: 'Project slug' },
    name: { type: 'string' },
    conditions: { type: 'object', additionalProperties: true },
    action_type: { type: 'string' },
    action_config: { type: 'object', additionalProperties: true },
    cooldown_seconds: { type: 'integer' },
    enabled: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'project', 'name', 'conditions', 'action_type', 'action_config', 'cooldown_seconds', 'enabled'],
} as const;

const base = { tags: ['alert rules'], security: sessionSecurity } as const;

export const listRulesSchema = {
  ...base,
  summary: 'Alert rules of a project',
  params: slugParams,
  response: { 200: { type: 'array', items: ruleSchema }, ...commonErrors },
} as const;

export const createRuleSchema = {
  ...base,
  summary: 'Create an alert rule',
  params: slugParams,
  body: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 100 },
      conditions: conditionsSchema,
      action_type: { type: 'string', enum: ACTION_TYPES, description: `Allowed: ${ACTION_TYPES.join(', ')}` },
      action_config: actionConfigSchema,
      cooldown_seconds: {
        type: 'integer',
        minimum: 0,
        maximum: 604_800,
        default: 300,
        description: 'Least time between two firings for the same issue',
      },
      enabled: { type: 'boolean', default: true },
    },
    required: ['name', 'conditions', 'action_type', 'action_config'],
    additionalProperties: false,
  },
  response: { 201: ruleSchema, ...commonErrors },
} as const;

export const deleteRuleSchema = {
  ...base,
  summary: 'Delete an alert rule',
  params: idParams,
  response: { 204: { type: 'null', description: 'Deleted' }, ...commonErrors },
} as const;

export const toggleRuleSchema = {
  ...base,
  summary: 'Enable a disabled rule or disable an enabled one',
  params: idParams,
  response: { 200: ruleSchema, ...commonErrors },
} as const;

export const ruleDeliveriesSchema = {
  ...base,
  summary: 'Alert history of a rule: its latest 100 webhook deliveries, newest first',
  params: idParams,
  response: {
    200: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          issue_id: { type: 'string' },
          fired_at: { type: 'string', format: 'date-time' },
          status: { type: 'string', enum: ['delivered', 'failed'] },
          attempts: { type: 'integer' },
          response_status: { type: ['integer', 'null'] },
          error: { type: ['string', 'null'] },
        },
      },
    },
    ...commonErrors,
  },
} as const;

export const updateRuleSchema = {
  ...base,
  summary: 'Replace an alert rule: name, conditions, action, cooldown and whether it is enabled',
  params: idParams,
  body: createRuleSchema.body,
  response: { 200: ruleSchema, ...commonErrors },
} as const;

export const testRuleSchema = {
  ...base,
  summary: "Send a test payload to the rule's webhook now and report what it answered (nothing is recorded)",
  params: idParams,
  response: {
    200: {
      type: 'object',
      properties: {
        ok: { type: 'boolean' },
        attempts: { type: 'integer' },
        status: { type: 'integer' },
        error: { type: 'string' },
      },
      required: ['ok', 'attempts'],
    },
    ...commonErrors,
  },
} as const;

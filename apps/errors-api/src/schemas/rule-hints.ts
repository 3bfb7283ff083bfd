import { badRequest } from '@trove/service-kit';
import type { FastifyRequest } from 'fastify';
import { LEVELS } from '../ingest/event-shape.ts';
import { notAllowed } from './suggest.ts';

export const CONDITION_KEYS = ['level', 'min_count', 'title_contains', 'new_issue'] as const;
export const ACTION_TYPES = ['webhook'] as const;
export const RULE_BODY_KEYS = [
  'name',
  'conditions',
  'action_type',
  'action_config',
  'cooldown_seconds',
  'enabled',
] as const;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Runs before schema validation on rule bodies: a misspelt key or value gets a message naming
 * what is allowed and the nearest match, instead of the validator's generic wording. Everything
 * else (types, ranges, the URL) is left to the schema.
 */
export async function explainRuleBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (!isObject(body)) return;
  for (const key of Object.keys(body)) {
    if (!(RULE_BODY_KEYS as readonly string[]).includes(key)) {
      throw badRequest(notAllowed('body', key, RULE_BODY_KEYS, 'field'));
    }
  }
  if (typeof body.action_type === 'string' && !(ACTION_TYPES as readonly string[]).includes(body.action_type)) {
    throw badRequest(notAllowed('body.action_type', body.action_type, ACTION_TYPES, 'action type'));
  }
  const conditions = body.conditions;
  if (!isObject(conditions)) return;
  for (const key of Object.keys(conditions)) {
    if (!(CONDITION_KEYS as readonly string[]).includes(key)) {
      throw badRequest(notAllowed('body.conditions', key, CONDITION_KEYS, 'condition'));
    }
  }
  const levels = Array.isArray(conditions.level) ? conditions.level : [conditions.level];
  for (const level of levels) {
    if (typeof level === 'string' && !(LEVELS as readonly string[]).includes(level)) {
      throw badRequest(notAllowed('body.conditions.level', level, LEVELS, 'level'));
    }
  }
}

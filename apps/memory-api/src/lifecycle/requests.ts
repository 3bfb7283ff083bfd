import { offsetField } from '../schemas/requests.ts';

/**
 * Request schemas of the lifecycle and maintenance routes, typed as the spec types them. Fields
 * the spec leaves untyped are listed without a type and checked by the handlers, so a wrong
 * value gets a 400 naming the field. Unknown fields are ignored, as on every other route.
 */
const any = {};
const dryRun = { type: 'boolean' } as const;

export const cycleBody = {
  type: 'object',
  properties: {
    dry_run: dryRun,
    namespace: any,
    older_than_days: any,
    max_access_count: any,
    prune_expired: { type: 'boolean' },
    ttl_days: any,
  },
} as const;

export const promoteBody = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } as const;

export const deprecatedQuery = {
  type: 'object',
  properties: {
    namespace: { type: 'string' },
    limit: { type: 'integer' },
    offset: offsetField,
  },
} as const;

/** ImportanceRequest */
export const importanceBody = { type: 'object', properties: { namespace: any } } as const;

/** PruneRequest */
export const pruneBody = {
  type: 'object',
  properties: { dry_run: dryRun, namespace: any, ttl_days: { type: 'integer' } },
} as const;

/** ConsolidateRequest */
export const consolidateBody = {
  type: 'object',
  properties: { dry_run: dryRun, namespace: any, threshold: { type: 'number' } },
} as const;

/** ConsolidatePairRequest */
export const consolidatePairBody = {
  type: 'object',
  required: ['id_keep', 'id_remove'],
  properties: { id_keep: { type: 'string' }, id_remove: { type: 'string' }, hard_delete: { type: 'boolean' } },
} as const;

/** AgingRequest */
export const agingBody = {
  type: 'object',
  properties: {
    action: { type: 'string' },
    dry_run: dryRun,
    namespace: any,
    max_access_count: any,
    older_than_days: any,
  },
} as const;

/** OrphansRequest */
export const orphansBody = {
  type: 'object',
  properties: { limit: { type: 'integer' }, namespace: any, threshold: { type: 'number' } },
} as const;

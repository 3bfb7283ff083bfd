/** `id` plus an optional event limit, for /timeline and /provenance. */
export const idLimitQuery = {
  type: 'object',
  properties: { id: { type: 'string' }, limit: { type: 'integer' } },
} as const;

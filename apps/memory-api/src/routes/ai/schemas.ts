/**
 * Bodies of /extract, /context and /dream, typed as the spec types them; untyped ("unspecified")
 * fields are checked by the handlers (routes/parse.ts) so the 400 names the field. As on the other
 * routes, unknown fields are ignored.
 */
const any = {};
const stringArray = { type: 'array', items: { type: 'string' } } as const;

export const extractBody = {
  type: 'object',
  required: ['content'],
  properties: {
    content: { type: 'string', minLength: 1, maxLength: 200_000 },
    max_facts: any,
    model: any,
    namespace: any,
    tags: stringArray,
    type: any,
    store: { type: 'boolean' },
  },
} as const;

export const contextBody = {
  type: 'object',
  required: ['query'],
  properties: {
    query: { type: 'string', maxLength: 10_000 },
    namespace: any,
    budget_chars: any,
    limit: any,
    tags: stringArray,
    strategy: any,
    min_score: any,
    exclude_ids: any,
  },
} as const;

export const dreamBody = {
  type: 'object',
  properties: {
    namespace: any,
    dry_run: { type: 'boolean' },
    duplicate_threshold: any,
    contradiction_threshold: any,
    min_mentions: any,
  },
} as const;

/**
 * Request schemas, as the spec types them. Fields the spec leaves untyped ("unspecified") are
 * listed without a type and checked by the handlers (routes/parse.ts), so that a wrong value
 * gets a message naming the field and, for `type` and `strategy`, the valid vocabulary.
 */
const any = {};

/**
 * The largest `offset` accepted by every listing. The spec sets none; without one a number past
 * Postgres's bigint reached the database and answered 500. Nobody pages two billion rows deep.
 */
export const OFFSET_MAX = 2_147_483_647;
export const offsetField = { type: 'integer', minimum: 0, maximum: OFFSET_MAX } as const;
const stringArray = { type: 'array', items: { type: 'string' } } as const;
const idBody = (extra: Record<string, unknown> = {}, required: string[] = ['id']) =>
  ({ type: 'object', required, properties: { id: { type: 'string' }, ...extra } }) as const;

export const rememberBody = {
  type: 'object',
  required: ['content'],
  properties: {
    content: { type: 'string', minLength: 1, maxLength: 200_000 },
    tags: stringArray,
    namespace: any,
    type: any,
    metadata: any,
    category: any,
    entity: any,
    source: any,
    source_type: any,
    author_type: any,
    detect_contradiction: { type: 'boolean' },
    valid_from: any,
    valid_until: any,
  },
} as const;

export const memoryUpdateBody = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string' },
    content: any,
    importance: any,
    memory_type: any,
    metadata: any,
    namespace: any,
    pinned: any,
    tags: any,
  },
} as const;

/** What /search takes; /recall takes the same and more. */
const queryProperties = {
  query: { type: 'string', maxLength: 10_000 },
  limit: { type: 'integer' },
  namespace: any,
  tags: stringArray,
} as const;

export const recallBody = {
  type: 'object',
  required: ['query'],
  properties: {
    ...queryProperties,
    category: any,
    entity: any,
    after: any,
    before: any,
    at: any,
    min_score: any,
    strict: { type: 'boolean' },
    strategy: any,
    search_type: any,
    enrich: { type: 'boolean' },
    explain: { type: 'boolean' },
    pack: { type: 'boolean' },
    budget_chars: any,
    exclude_ids: any,
  },
} as const;

export const searchBody = {
  type: 'object',
  required: ['query'],
  properties: queryProperties,
} as const;

export const listBody = {
  type: 'object',
  properties: {
    at: any,
    include_meta: { type: 'boolean' },
    limit: { type: 'integer' },
    namespace: any,
    offset: offsetField,
    tag: { type: 'string' },
  },
} as const;

export const recentQuery = {
  type: 'object',
  properties: { limit: { type: 'integer' }, namespace: { type: 'string' } },
} as const;

export const idQuery = { type: 'object', properties: { id: { type: 'string' } } } as const;

export const pinBody = idBody();
export const memoryPinBody = idBody({ pinned: { type: 'boolean' } }, ['id', 'pinned']);
export const memoryImportanceBody = idBody({ importance: { type: 'number' } }, ['id', 'importance']);
export const memoryFeedbackBody = idBody({ feedback: { type: 'string', enum: ['helpful', 'unhelpful'] } }, [
  'id',
  'feedback',
]);

export const tagRenameBody = {
  type: 'object',
  required: ['old', 'new'],
  properties: {
    old: { type: 'string', minLength: 1 },
    new: { type: 'string', minLength: 1, maxLength: 100 },
    namespace: any,
  },
} as const;
export const tagDeleteBody = {
  type: 'object',
  required: ['tag'],
  properties: { tag: { type: 'string', minLength: 1 }, namespace: any },
} as const;
export const namespaceQuery = { type: 'object', properties: { namespace: { type: 'string' } } } as const;
export const namespacesQuery = { type: 'object', properties: { with_counts: { type: 'boolean' } } } as const;
export const namespaceRenameBody = {
  type: 'object',
  required: ['from', 'to'],
  properties: { from: { type: 'string', minLength: 1 }, to: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;
export const namespaceDeleteBody = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    strategy: { type: 'string', enum: ['refuse', 'merge', 'deprecate'] },
    target: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;
export const statsBody = { type: 'object', properties: { namespace: any } } as const;
export const importBody = {
  type: 'object',
  required: ['content'],
  properties: { content: { type: 'string' }, namespace: any, tags: stringArray },
} as const;
export const exportQuery = {
  type: 'object',
  properties: { namespace: { type: 'string' }, format: { type: 'string', enum: ['json', 'jsonl'] } },
} as const;

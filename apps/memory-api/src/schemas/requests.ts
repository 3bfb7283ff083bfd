import { Type } from 'typebox';
import { RECALL_STRATEGIES } from '../config.ts';
import {
  Fraction,
  Id,
  Limit,
  MemoryIds,
  MemoryType,
  Metadata,
  Namespace,
  Offset,
  OptBool,
  OptText,
  Strict,
  Tags,
  Text,
  Timestamp,
} from './fields.ts';

/** Request schemas of the memory routes, as the spec names them (RememberRequest...). */
const opt = Type.Optional;
const idBody = Strict({ id: Id });

export const rememberBody = Strict({
  content: Type.String({ minLength: 1, maxLength: 200_000 }),
  tags: Tags,
  namespace: Namespace,
  type: opt(MemoryType),
  metadata: Metadata,
  category: OptText('stored as metadata.category'),
  entity: OptText('stored as metadata.entity'),
  source: OptText(),
  source_type: OptText('default "user"'),
  author_type: OptText(),
  importance: Fraction('importance, default 0.5'),
  pinned: OptBool('a pinned memory is protected from aging and cleanup'),
  detect_contradiction: OptBool('retire the closest memory this one corrects'),
  valid_from: Timestamp('valid from'),
  valid_until: Timestamp('valid until'),
});

export const memoryUpdateBody = Strict({
  id: Id,
  content: OptText('new content (embedded again)'),
  importance: Fraction('importance'),
  memory_type: opt(MemoryType),
  metadata: Metadata,
  namespace: OptText('moves the memory (no re-embed)'),
  pinned: OptBool(),
  tags: Tags,
});

/** What /search takes; /recall takes the same and more. */
const queryProperties = {
  query: Type.String({ maxLength: 10_000 }),
  limit: Limit(100),
  namespace: Namespace,
  tags: Tags,
};

export const recallBody = Strict({
  ...queryProperties,
  category: OptText('metadata.category filter'),
  entity: OptText('metadata.entity filter'),
  after: Timestamp('created at or after'),
  before: Timestamp('created at or before'),
  at: Timestamp('time travel: memories that existed then'),
  min_score: Fraction('results below are dropped; default 0.0'),
  strict: OptBool('a 0.5 threshold when min_score is not set'),
  // Checked by the route, whose message for a wrong value is part of the recall contract.
  strategy: OptText(`one of ${RECALL_STRATEGIES.join(', ')}; default: the configured strategy`),
  search_type: opt(Type.Enum(['all', 'memory', 'doc'], { description: 'all (default), memory or doc' })),
  enrich: OptBool(),
  explain: OptBool(),
  pack: OptBool(),
  budget_chars: Limit(1_000_000, 'character budget of a pack (default 4000)'),
  exclude_ids: MemoryIds('memory ids already injected'),
});

export const searchBody = Strict(queryProperties);

export const listBody = Strict({
  at: Timestamp('memories that existed then'),
  include_meta: OptBool(),
  limit: Limit(1000),
  namespace: Namespace,
  offset: Offset,
  tag: OptText(),
});

export const recentQuery = Strict({ limit: Limit(100), namespace: Namespace });
export const idQuery = Strict({ id: opt(Id) });
export const pinBody = idBody;
export const memoryPinBody = Strict({ id: Id, pinned: Type.Boolean() });
export const memoryImportanceBody = Strict({ id: Id, importance: Type.Number({ minimum: 0, maximum: 1 }) });
export const memoryFeedbackBody = Strict({ id: Id, feedback: Type.Enum(['helpful', 'unhelpful']) });

export const tagRenameBody = Strict({
  old: Type.String({ minLength: 1 }),
  new: Type.String({ minLength: 1, maxLength: 100 }),
  namespace: Namespace,
});
export const tagDeleteBody = Strict({ tag: Type.String({ minLength: 1 }), namespace: Namespace });
export const namespaceQuery = Strict({ namespace: Namespace });
export const namespacesQuery = Strict({ with_counts: OptBool() });
export const namespaceRenameBody = Strict({
  from: Type.String({ minLength: 1 }),
  to: Type.String({ minLength: 1, maxLength: 200 }),
});
export const namespaceDeleteBody = Strict({
  name: Type.String({ minLength: 1 }),
  strategy: opt(Type.Enum(['refuse', 'merge', 'deprecate'])),
  target: opt(Type.String({ minLength: 1, maxLength: 200 })),
});
export const statsBody = Strict({ namespace: Namespace });
export const importBody = Strict({
  content: Text('JSONL: one memory per line'),
  namespace: OptText('import into this namespace (copies get new ids)'),
  tags: Tags,
});
export const exportQuery = Strict({
  namespace: Namespace,
  format: opt(Type.Enum(['json', 'jsonl'], { description: 'json (default): one array; jsonl: one memory per line' })),
  after: opt(Type.String({ format: 'uuid', description: 'resume after this id (memories come ordered by id)' })),
});
/** A request that takes nothing (/verify, /rebuild-backlinks, /routes): no body, or an empty object. */
export const noFields = Strict({});
export const repairBody = Strict({
  reembed: OptBool('first embed again every memory and document whose vector is missing or stale'),
});
